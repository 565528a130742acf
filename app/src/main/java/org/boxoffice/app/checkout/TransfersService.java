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
import org.boxoffice.app.http.Refusals;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.TicketTransfer;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Tickets changing hands: the holder offers one to another account, the recipient accepts it and
 * gets a new code (the old one stops admitting at once), the sender may take an open offer back.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/bookings/$BOOKING/tickets/A-1-1/transfers -H "Authorization: Bearer $TOKEN" --json '{"toAccountId":"bob"}'
 * curl -X POST localhost:8080/v1/transfers/$TRANSFER/accept -H "Authorization: Bearer $BOB"
 * curl -X DELETE localhost:8080/v1/transfers/$TRANSFER -H "Authorization: Bearer $TOKEN"
 * curl localhost:8080/v1/accounts/me/transfers -H "Authorization: Bearer $TOKEN"
 * curl localhost:8080/v1/accounts/me/tickets -H "Authorization: Bearer $BOB"
 * </pre>
 */
public final class TransfersService implements HttpService {

    /** An account id as tokens carry it: 1 to 64 printable ASCII characters, no spaces. */
    private static final Pattern ACCOUNT = Pattern.compile("[\\x21-\\x7E]{1,64}");

    private final TicketTransfers transfers;
    private final Authenticator auth;

    public TransfersService(TicketTransfers transfers, Authenticator auth) {
        this.transfers = transfers;
        this.auth = auth;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/bookings/{bookingId}/tickets/{seatId}/transfers", this::offer)
                .post("/transfers/{transferId}/accept", this::accept)
                .delete("/transfers/{transferId}", this::cancel)
                .get("/accounts/me/transfers", this::mine)
                .get("/accounts/me/tickets", this::held);
    }

    private void offer(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        long bookingId = id(req, "bookingId", "booking");
        String seatId = req.path().pathParameters().get("seatId");
        JsonNode body = Json.body(req);
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("toAccountId")) {
                throw ApiException.badRequest("unknown field '" + field + "'; the body is {\"toAccountId\": \"...\"}");
            }
        }
        JsonNode to = body.get("toAccountId");
        if (to == null || !to.isTextual() || !ACCOUNT.matcher(to.textValue()).matches()) {
            throw ApiException.badRequest("toAccountId is an account id: 1 to 64 printable ASCII characters, no spaces");
        }
        if (to.textValue().equals(caller.accountId())) {
            throw ApiException.badRequest("a ticket is transferred to another account");
        }
        switch (transfers.offer(caller, bookingId, seatId, to.textValue())) {
            case Outcome.Done<TicketTransfer> done -> {
                res.header("Location", "/v1/transfers/" + done.value().transferId());
                Json.send(res, 201, TransferView.of(done.value()));
            }
            case Outcome.Refused<TicketTransfer> refused -> throw Refusals.of(refused.reason(), refused.message());
        }
    }

    private void accept(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        long transferId = id(req, "transferId", "transfer");
        switch (transfers.accept(caller, transferId)) {
            case Outcome.Done<TicketTransfer> done -> {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("transfer", TransferView.of(done.value()));
                out.put("ticket", transfers.ticketOf(done.value()).orElse(null));
                Json.send(res, 200, out);
            }
            case Outcome.Refused<TicketTransfer> refused -> throw Refusals.of(refused.reason(), refused.message());
        }
    }

    private void cancel(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        long transferId = id(req, "transferId", "transfer");
        if (!transfers.cancel(caller, transferId)) {
            throw ApiException.notFound("an open transfer " + transferId + " of yours");
        }
        res.status(204).send();
    }

    private void mine(ServerRequest req, ServerResponse res) {
        Json.send(res, 200, Map.of("transfers", transfers.mine(auth.require(req))));
    }

    private void held(ServerRequest req, ServerResponse res) {
        Json.send(res, 200, Map.of("tickets", transfers.held(auth.require(req))));
    }

    private static long id(ServerRequest req, String name, String what) {
        String raw = req.path().pathParameters().get(name);
        try {
            long id = Long.parseLong(raw);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.notFound(what + " " + raw);
    }
}
