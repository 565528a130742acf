package org.boxoffice.app.checkout;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.http.Json;

import java.util.Map;

/**
 * Bookings and their tickets, for their owner (or an admin; anyone else gets 404).
 *
 * <pre>
 * curl localhost:8080/v1/bookings/$BOOKING -H "Authorization: Bearer $TOKEN"
 * curl localhost:8080/v1/bookings/$BOOKING/tickets/A-1-1/qr.png -H "Authorization: Bearer $TOKEN" -o ticket.png
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
                .get("/accounts/me/bookings", this::mine);
    }

    private void get(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        Json.send(res, 200, bookings.get(caller, req.path().pathParameters().get("bookingId")));
    }

    private void cancel(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        Json.send(res, 200, bookings.cancel(caller, req.path().pathParameters().get("bookingId")));
    }

    private void qr(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        byte[] png = bookings.qr(caller, req.path().pathParameters().get("bookingId"),
                req.path().pathParameters().get("seatId"));
        res.header(HeaderNames.CONTENT_TYPE, "image/png");
        res.header(HeaderNames.CACHE_CONTROL, "private, max-age=300");
        res.send(png);
    }

    private void mine(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        Json.send(res, 200, Map.of("bookings", bookings.mine(caller)));
    }
}
