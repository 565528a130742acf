package org.boxoffice.app.checkout;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.HttpConventions;
import org.boxoffice.app.http.Json;

import java.util.Map;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;

/**
 * Bookings and their tickets, for their owner (or an admin; anyone else gets 404).
 *
 * <pre>
 * curl localhost:8080/v1/bookings/$BOOKING -H "Authorization: Bearer $TOKEN"
 * curl localhost:8080/v1/bookings/$BOOKING/tickets/A-1-1/qr.png -H "Authorization: Bearer $TOKEN" -o ticket.png
 * curl localhost:8080/v1/bookings/$BOOKING/tickets/A-1-1/rotating -H "Authorization: Bearer $TOKEN"
 * curl localhost:8080/v1/accounts/me/bookings -H "Authorization: Bearer $TOKEN"
 * curl -X DELETE localhost:8080/v1/bookings/$BOOKING -H "Authorization: Bearer $TOKEN"
 * </pre>
 */
public final class BookingsService implements HttpService {

    private final BookingManager bookings;
    private final Authenticator auth;

    public BookingsService(BookingManager bookings, Authenticator auth) {
        this.bookings = bookings;
        this.auth = auth;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/bookings/{bookingId}", this::get)
                .delete("/bookings/{bookingId}", this::cancel)
                .get("/bookings/{bookingId}/tickets/{seatId}/qr.png", this::qr)
                .get("/bookings/{bookingId}/tickets/{seatId}/rotating", this::rotating)
                .get("/accounts/me/bookings", this::mine);
    }

    private void get(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String bookingId = req.path().pathParameters().get("bookingId");
        Json.send(res, 200, bookings.get(caller, bookingId).orElseThrow(() -> ApiException.notFound("booking " + bookingId)));
    }

    private void cancel(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String bookingId = req.path().pathParameters().get("bookingId");
        switch (bookings.cancel(caller, bookingId)) {
            case BookingManager.Cancellation.Done done -> Json.send(res, 200, done.booking());
            case BookingManager.Cancellation.NotFound notFound -> throw ApiException.notFound("booking " + bookingId);
            case BookingManager.Cancellation.Closed closed -> throw Refusals.of(Refusal.CANCELLATION_CLOSED,
                    "bookings for this show can be cancelled until " + closed.cancelHours() + " hours before it starts",
                    Map.of("cancellableUntil", closed.cancellableUntil()));
            case BookingManager.Cancellation.RefundPending pending -> throw Refusals.of(Refusal.PAYMENT_PROVIDER_UNAVAILABLE,
                    "the refund could not be made now; the cancellation is recorded and completes by itself",
                    Map.of("bookingId", pending.bookingId(), "retryAfterSeconds", 5));
            case BookingManager.Cancellation.Transferred transferred -> throw Refusals.of(
                    org.boxoffice.domain.Rejection.TICKET_TRANSFERRED, "a ticket of booking " + transferred.bookingId()
                            + " was transferred to another account; the booking is not refunded");
        }
    }

    private void qr(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String bookingId = req.path().pathParameters().get("bookingId");
        String seatId = req.path().pathParameters().get("seatId");
        byte[] png = switch (bookings.qr(caller, bookingId, seatId)) {
            case BookingManager.Qr.Image image -> image.png();
            case BookingManager.Qr.NotFound notFound -> throw notHeld(caller, bookingId, seatId);
            case BookingManager.Qr.PrintAtHomeOff off -> throw Refusals.of(Refusal.PRINT_AT_HOME_OFF, "show " + off.showId()
                    + " admits only the rotating code of the ticket app, not a printed one");
        };
        res.header(HeaderNames.CONTENT_TYPE, "image/png");
        // a ticket can be cancelled, refunded or (later) transferred at any moment: no copy may outlive that
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        HttpConventions.send(res, png);
    }

    private void rotating(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String bookingId = req.path().pathParameters().get("bookingId");
        String seatId = req.path().pathParameters().get("seatId");
        BookingManager.RotatingSecret secret = bookings.rotatingSecret(caller, bookingId, seatId)
                .orElseThrow(() -> notHeld(caller, bookingId, seatId));
        // the holder's secret: no proxy or browser cache may keep it
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        Json.send(res, 200, secret);
    }

    /**
     * The answer for a ticket the caller cannot have now: 409 TICKET_CANCELLING while its booking's
     * cancellation is under way, 410 TICKET_CANCELLED once refunded or cancelled (to the booking's
     * account or an admin), otherwise 404.
     */
    private ApiException notHeld(Principal caller, String bookingId, String seatId) {
        return bookings.voided(caller, bookingId, seatId)
                .map(v -> v.cancelling()
                        ? Refusals.of(Refusal.TICKET_CANCELLING, "booking " + v.bookingId() + " is being cancelled: its tickets"
                                + " no longer admit and its refund is under way", Map.of("bookingId", v.bookingId(), "seatId", v.seatId()))
                        : Refusals.of(Refusal.TICKET_CANCELLED, "booking " + v.bookingId() + " was cancelled and refunded:"
                                + " its tickets no longer admit", Map.of("bookingId", v.bookingId(), "seatId", v.seatId())))
                .orElseGet(() -> ApiException.notFound("ticket " + seatId + " of booking " + bookingId));
    }

    private void mine(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        Json.send(res, 200, Map.of("bookings", bookings.mine(caller)));
    }
}
