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
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;

/**
 * Ticket checks at the gate (role {@code staff} or {@code admin}): VALID the first time (the ticket
 * is marked used), ALREADY_USED after, EXPIRED for a rotating code past its window, INVALID for a
 * forged, unknown or cancelled ticket (or a printed code where the show admits rotating codes only);
 * and, for an admin, whether a show admits printed codes.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/tickets/verify -H "Authorization: Bearer $STAFF" --json '{"code":"BX1...."}'
 * curl -X PUT localhost:8080/v1/admin/shows/$SHOW/ticket-policy -H "Authorization: Bearer $ADMIN" --json '{"printAtHome":false}'
 * </pre>
 */
public final class TicketsService implements HttpService {

    private final BookingManager bookings;
    private final Authenticator auth;

    public TicketsService(BookingManager bookings, Authenticator auth) {
        this.bookings = bookings;
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
            if (!field.equals("code")) {
                throw ApiException.badRequest("unknown field '" + field + "'");
            }
        }
        JsonNode code = body.get("code");
        if (code == null || !code.isTextual() || code.asText().isBlank() || code.asText().length() > 512) {
            throw ApiException.badRequest("'code' must be the ticket code string");
        }
        Json.send(res, 200, bookings.verify(code.asText()));
    }
}
