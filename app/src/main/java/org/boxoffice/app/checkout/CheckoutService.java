package org.boxoffice.app.checkout;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.mail.Recipients;
import org.boxoffice.app.holds.Idempotency;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.Outcome;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Paying for a hold. The {@code Idempotency-Key} is required: a retried request answers what the
 * first one did and never charges again.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/holds/$HOLD/checkout -H "Authorization: Bearer $TOKEN" \
 *      -H 'Idempotency-Key: pay-1' -H 'Content-Type: application/json' -d '{"paymentMethod":"card"}'
 * </pre>
 * 200 {@code {"status":"BOOKED","bookingId":...}}, 202 {@code {"status":"PENDING","paymentId":...}}
 * (poll the hold or the account's bookings), 402 PAYMENT_DECLINED, 409 HOLD_EXPIRED, 404 for
 * someone else's hold.
 */
public final class CheckoutService implements HttpService {

    private static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");
    private static final Pattern METHOD = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    private final CheckoutManager checkout;
    private final Authenticator auth;
    private final Idempotency idempotency;
    private final String recipientPattern;
    private final OpsMetrics metrics;

    public CheckoutService(CheckoutManager checkout, Authenticator auth, Idempotency idempotency,
                           String recipientPattern, OpsMetrics metrics) {
        this.metrics = metrics;
        this.checkout = checkout;
        this.auth = auth;
        this.idempotency = idempotency;
        this.recipientPattern = recipientPattern;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/holds/{holdId}/checkout", this::checkout);
    }

    /** Counts every checkout request by outcome ({@code boxoffice_checkouts_total}). */
    private void checkout(ServerRequest req, ServerResponse res) {
        String outcome = "INTERNAL";
        try {
            outcome = pay(req, res);
        } catch (ApiException e) {
            outcome = e.code();
            throw e;
        } finally {
            metrics.count(OpsMetrics.CHECKOUTS, outcome);
        }
    }

    /** Answers one checkout request; returns its outcome for the metrics. */
    private String pay(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String holdId = req.path().pathParameters().get("holdId");
        JsonNode body = Json.body(req);
        String method = parse(body);
        Optional<String> key = req.headers().first(IDEMPOTENCY_KEY);
        if (key.isEmpty()) {
            throw ApiException.badRequest("an Idempotency-Key header is required to pay");
        }
        if (!Idempotency.validKey(key.get())) {
            throw ApiException.badRequest(Idempotency.KEY_RULE);
        }
        String recipient = Recipients.of(req, caller, recipientPattern);
        String fingerprint = "POST /v1/holds/" + holdId + "/checkout " + Json.write(body);
        String[] outcome = {"replayed"};    // stays so when the key's kept answer is replayed
        Idempotency.Reply reply = idempotency.execute(caller.accountId(), key.get(), fingerprint, () ->
                switch (checkout.checkout(caller, holdId, method, recipient)) {
                    case Outcome.Done(CheckoutManager.Payment.Booked booked) -> {
                        outcome[0] = "booked";
                        yield new Idempotency.Reply(200, Json.write(ordered("status", "BOOKED", "bookingId",
                                booked.bookingId(), "paymentId", booked.paymentId())));
                    }
                    case Outcome.Done(CheckoutManager.Payment.Pending pending) -> {
                        outcome[0] = "pending";
                        yield new Idempotency.Reply(202, Json.write(ordered("status", "PENDING", "paymentId",
                                pending.paymentId())));
                    }
                    case Outcome.Refused<CheckoutManager.Payment> refused -> {
                        outcome[0] = Refusals.code(refused.reason());
                        yield new Idempotency.Reply(Refusals.status(refused.reason()), Json.write(Refusals.body(refused)));
                    }
                });
        Json.sendRaw(res, reply.status(), reply.body());
        return outcome[0];
    }

    /** Exactly {@code {"paymentMethod": "<token>"}}; anything else is a 400. */
    static String parse(JsonNode body) {
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("paymentMethod")) {
                throw ApiException.badRequest("unknown field '" + field + "'");
            }
        }
        JsonNode method = body.get("paymentMethod");
        if (method == null || !method.isTextual() || !METHOD.matcher(method.asText()).matches()) {
            throw ApiException.badRequest("'paymentMethod' must be a payment method token of 1-64 letters, digits or '_.:-'");
        }
        return method.asText();
    }

    private static Map<String, Object> ordered(Object... pairs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            out.put((String) pairs[i], pairs[i + 1]);
        }
        return out;
    }
}
