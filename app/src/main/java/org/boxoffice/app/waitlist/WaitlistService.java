package org.boxoffice.app.waitlist;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.mail.Recipients;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.app.http.Json;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.WaitlistEntry;

import java.util.Iterator;
import java.util.Map;

/**
 * The waitlist of sold-out shows, and the offers made from it.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/shows/echoes-berlin-1/waitlist -H "Authorization: Bearer $TOKEN" \
 *      -H 'Content-Type: application/json' -d '{"quantity":2,"section":"A"}'
 * curl -X POST localhost:8080/v1/shows/echoes-berlin-1/waitlist -H "Authorization: Bearer $TOKEN" \
 *      -H 'Content-Type: application/json' -d '{"quantity":2,"area":"FLOOR"}'
 * curl localhost:8080/v1/shows/echoes-berlin-1/waitlist/me -H "Authorization: Bearer $TOKEN"
 * curl -X DELETE localhost:8080/v1/shows/echoes-berlin-1/waitlist -H "Authorization: Bearer $TOKEN"
 * curl localhost:8080/v1/accounts/me/offers -H "Authorization: Bearer $TOKEN"
 * </pre>
 * An offer is a hold: check it out with {@code POST /v1/holds/{holdId}/checkout}, decline it with
 * {@code DELETE /v1/holds/{holdId}}.
 */
public final class WaitlistService implements HttpService {

    private static final int MAX_SECTION = 64;

    private final WaitlistManager waitlist;
    private final Authenticator auth;
    private final String recipientPattern;

    /** @param recipientPattern where an offer is mailed when the token names no email ({@link Recipients}) */
    public WaitlistService(WaitlistManager waitlist, Authenticator auth, String recipientPattern) {
        this.waitlist = waitlist;
        this.auth = auth;
        this.recipientPattern = recipientPattern;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/shows/{showId}/waitlist", this::join)
                .get("/shows/{showId}/waitlist/me", this::mine)
                .delete("/shows/{showId}/waitlist", this::leave)
                .get("/accounts/me/offers", this::offers);
    }

    private void join(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String showId = req.path().pathParameters().get("showId");
        switch (waitlist.join(caller, showId, parse(Json.body(req)), Recipients.of(req, caller, recipientPattern))) {
            case Outcome.Done(WaitlistManager.Joined joined) -> {
                if (joined.created()) {
                    res.header("Location", "/v1/shows/" + showId + "/waitlist/me");
                }
                Json.send(res, joined.created() ? 201 : 200, joined.standing());
            }
            case Outcome.Refused<WaitlistManager.Joined> refused -> Refusals.send(res, refused);
        }
    }

    private void mine(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String showId = req.path().pathParameters().get("showId");
        Json.send(res, 200, waitlist.mine(caller, showId)
                .orElseThrow(() -> ApiException.notFound("waitlist entry for show " + showId)));
    }

    private void leave(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String showId = req.path().pathParameters().get("showId");
        switch (waitlist.leave(caller, showId)) {
            case NOT_IN_LINE -> throw ApiException.notFound("waitlist entry for show " + showId);
            case PAYING -> throw Refusals.of(Rejection.PAYMENT_IN_PROGRESS,
                    "the offer's hold is being paid for; it can be given up once the payment is declined");
            case LEFT -> res.status(204).send();
        }
    }

    private void offers(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        Json.send(res, 200, Map.of("offers", waitlist.offers(caller)));
    }

    /**
     * {@code {"quantity": 1..10, "section": optional}} for seats, {@code {"quantity": 1..10, "area": name}}
     * for admissions to a general-admission area; anything else is a 400.
     */
    static WaitlistManager.JoinRequest parse(JsonNode body) {
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("quantity") && !field.equals("section") && !field.equals("area")) {
                throw ApiException.badRequest("unknown field '" + field + "'");
            }
        }
        JsonNode quantity = body.get("quantity");
        if (quantity == null || !quantity.isIntegralNumber() || !quantity.canConvertToInt()
                || quantity.asInt() < 1 || quantity.asInt() > WaitlistEntry.MAX_QUANTITY) {
            throw ApiException.badRequest("'quantity' must be an integer from 1 to " + WaitlistEntry.MAX_QUANTITY);
        }
        JsonNode section = body.get("section");
        if (section != null && !section.isNull() && (!section.isTextual() || section.asText().isBlank()
                || section.asText().length() > MAX_SECTION)) {
            throw ApiException.badRequest("'section' must be a section name");
        }
        JsonNode area = body.get("area");
        if (area != null && !area.isNull()) {
            if (!area.isTextual() || !area.asText().matches(AdmissionArea.NAME_PATTERN)) {
                throw ApiException.badRequest("'area' must be an area name (1-16 letters or digits)");
            }
            if (section != null && !section.isNull()) {
                throw ApiException.badRequest("give 'section' (seats) or 'area' (admissions), not both");
            }
            return new WaitlistManager.JoinRequest(quantity.asInt(), null, area.asText());
        }
        return new WaitlistManager.JoinRequest(quantity.asInt(),
                section == null || section.isNull() ? null : section.asText());
    }
}
