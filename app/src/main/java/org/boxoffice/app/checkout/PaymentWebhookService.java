package org.boxoffice.app.checkout;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.app.payments.WebhookSignature;

import java.io.IOException;
import java.util.Map;

/**
 * The payment provider's webhook. The body must carry a valid {@code Boxoffice-Signature}
 * (HMAC-SHA256 with the shared secret), else 401 and nothing changes. Each event id is applied once;
 * an event whose amount, currency or claim disagrees with the payment attempt or the provider's
 * own record of the charge is 422 PAYMENT_MISMATCH and changes nothing ({@link PaymentEvents}).
 *
 * <pre>
 * body='{"id":"evt_1","type":"payment.captured","created":0,"data":{"chargeId":"ch_1","idempotencyKey":"bx-H1-1","amount":17800,"currency":"EUR"}}'
 * sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/.* //')
 * curl -X POST localhost:8080/v1/payments/webhook -H "Boxoffice-Signature: sha256=$sig" --json "$body"
 * </pre>
 */
public final class PaymentWebhookService implements HttpService {

    private static final int MAX_BODY = 64 * 1024;

    private final WebhookSignature signature;
    private final PaymentEvents events;
    private final OpsMetrics metrics;

    public PaymentWebhookService(WebhookSignature signature, PaymentEvents events, OpsMetrics metrics) {
        this.signature = signature;
        this.events = events;
        this.metrics = metrics;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/payments/webhook", this::receive);
    }

    /** Counts every delivery by result ({@code boxoffice_webhook_events_total}). */
    private void receive(ServerRequest req, ServerResponse res) {
        String result = "INTERNAL";
        try {
            result = apply(req, res);
        } catch (ApiException e) {
            result = e.code();
            throw e;
        } catch (io.helidon.http.RequestException e) {
            // the transport refused the delivery (an unreadable body, a bad chunk): the sender's error
            result = e.status().code() < 500 ? "BAD_REQUEST" : "INTERNAL";
            throw e;
        } catch (io.helidon.http.HttpException e) {
            result = e.status().code() < 500 ? "BAD_REQUEST" : "INTERNAL";
            throw e;
        } finally {
            metrics.count(OpsMetrics.WEBHOOK_EVENTS, result);
        }
    }

    /** Applies one delivery; returns its result for the metrics. */
    private String apply(ServerRequest req, ServerResponse res) {
        byte[] body = req.content().hasEntity() ? req.content().as(byte[].class) : new byte[0];
        if (body.length > MAX_BODY) {
            throw Refusals.of(Refusal.PAYLOAD_TOO_LARGE, "webhook bodies are limited to 64 KB");
        }
        String header = req.headers().first(HeaderNames.create(WebhookSignature.HEADER)).orElse(null);
        if (!signature.verify(body, header)) {
            throw Refusals.of(Refusal.INVALID_SIGNATURE, "the " + WebhookSignature.HEADER
                    + " header is missing or does not match the body");
        }
        PaymentEvents.Event event = parse(body);
        return switch (events.apply(event)) {
            case PaymentEvents.Outcome.Taken taken -> {
                Json.send(res, 200, Map.of("received", event.id(), "outcome", taken.what()));
                yield taken.what().toLowerCase(java.util.Locale.ROOT);
            }
            case PaymentEvents.Outcome.Mismatch mismatch -> throw Refusals.of(Refusal.PAYMENT_MISMATCH,
                    "this event disagrees with the payment or with the provider's record of the charge ("
                            + mismatch.why() + "); nothing was changed");
            case PaymentEvents.Outcome.ProviderUnavailable unavailable -> throw Refusals.of(Refusal.PAYMENT_PROVIDER_UNAVAILABLE,
                    "the payment provider could not confirm this event now; deliver it again later",
                    Map.of("retryAfterSeconds", 5));
        };
    }

    static PaymentEvents.Event parse(byte[] body) {
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw ApiException.badRequest("malformed JSON");
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("the body must be a JSON object");
        }
        if (Json.hasNul(node)) {
            throw ApiException.badRequest("strings in the body may not contain NUL (U+0000)");
        }
        JsonNode data = node.get("data");
        if (data == null || !data.isObject()) {
            throw ApiException.badRequest("'data' must be an object");
        }
        return new PaymentEvents.Event(text(node, "id", true), text(node, "type", true),
                text(data, "idempotencyKey", true), text(data, "chargeId", false), text(data, "reason", false),
                cents(data, "amount"), text(data, "currency", false));
    }

    /** An amount in cents: a whole number from 0 up, or null if absent. */
    private static Long cents(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.canConvertToExactIntegral() || !value.canConvertToLong() || value.asLong() < 0) {
            throw ApiException.badRequest("'" + field + "' must be a whole number of cents from 0 up");
        }
        return value.asLong();
    }

    private static String text(JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw ApiException.badRequest("'" + field + "' is required");
            }
            return null;
        }
        if (!value.isTextual() || value.asText().isEmpty() || value.asText().length() > 200) {
            throw ApiException.badRequest("'" + field + "' must be a string of 1 to 200 characters");
        }
        return value.asText();
    }
}
