package org.boxoffice.app.checkout;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.RequestGuard;

import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;

/**
 * Ticket checks at the gate (role {@code staff} or {@code admin}), of printed ({@code BX1.}), rotating
 * ({@code BXR.}) and signed ({@code BXS.}, the offline gate's) codes alike: VALID the first time (the
 * ticket is marked used), ALREADY_USED after, EXPIRED for a rotating or signed code past its window,
 * INVALID for a forged, unknown, revoked or cancelled ticket, a ticket of another show than the door's
 * (when the check names one) or a printed code where the show admits rotating codes only; and, for an
 * admin, whether a show admits printed codes.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/tickets/verify -H "Authorization: Bearer $STAFF" --json '{"code":"BX1...."}'
 * curl -X POST localhost:8080/v1/tickets/verify -H "Authorization: Bearer $STAFF" --json '{"code":"BXS....","showId":"'$SHOW'"}'
 * curl -X PUT localhost:8080/v1/admin/shows/$SHOW/ticket-policy -H "Authorization: Bearer $ADMIN" --json '{"printAtHome":false}'
 * </pre>
 */
public final class TicketsService implements HttpService {

    private final BookingManager bookings;
    private final ShowDirectory shows;
    private final Authenticator auth;

    public TicketsService(BookingManager bookings, ShowDirectory shows, Authenticator auth) {
        this.bookings = bookings;
        this.shows = shows;
        this.auth = auth;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/tickets/verify", this::verify)
                .put("/admin/shows/{showId}/ticket-policy", this::policy);
    }

    private void policy(ServerRequest req, ServerResponse res) {
        if (!auth.require(req).isAdmin()) {
            throw Refusals.of(Refusal.FORBIDDEN, "this needs the admin role");
        }
        String showId = req.path().pathParameters().get("showId");
        JsonNode body = Json.body(req);
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("printAtHome")) {
                throw ApiException.badRequest("unknown field '" + field + "'");
            }
        }
        JsonNode printAtHome = body.get("printAtHome");
        if (printAtHome == null || !printAtHome.isBoolean()) {
            throw ApiException.badRequest("'printAtHome' must be true or false");
        }
        if (!RequestGuard.ID.matcher(showId).matches() || !bookings.setPrintAtHome(showId, printAtHome.booleanValue())) {
            throw ApiException.notFound("show " + showId);
        }
        Json.send(res, 200, Map.of("showId", showId, "printAtHome", printAtHome.booleanValue()));
    }

    private void verify(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        if (!caller.hasRole("staff")) {
            throw Refusals.of(Refusal.FORBIDDEN, "checking tickets needs the staff or admin role");
        }
        JsonNode body = Json.body(req);
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("code") && !field.equals("showId")) {
                throw ApiException.badRequest("unknown field '" + field + "'");
            }
        }
        JsonNode code = body.get("code");
        if (code == null || !code.isTextual() || code.asText().isBlank() || code.asText().length() > 512) {
            throw ApiException.badRequest("'code' must be the ticket code string");
        }
        // the show this door admits, if it says: a ticket of any other show is refused
        JsonNode door = body.get("showId");
        if (door != null && (!door.isTextual() || !RequestGuard.ID.matcher(door.asText()).matches())) {
            throw ApiException.badRequest("'showId' must be 1 to 64 of [A-Za-z0-9._~@:-]");
        }
        Optional<String> doorShow = Optional.ofNullable(door).map(JsonNode::asText);
        if (doorShow.isPresent() && shows.find(doorShow.get()).isEmpty()) {
            throw ApiException.notFound("show " + doorShow.get());
        }
        Json.send(res, 200, bookings.verify(code.asText(), doorShow));
    }
}
