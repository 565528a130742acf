package org.boxoffice.app.holds;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.admission.AdmissionGate;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.JsonBytes;

import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.grid.InventoryUnavailableException;
import org.boxoffice.grid.room.WaitingRooms;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Holds of seats, and of admissions to general-admission areas.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/shows/echoes-berlin-1/holds -H "Authorization: Bearer $TOKEN" \
 *      -H 'Idempotency-Key: 7f1c' -H 'Content-Type: application/json' -d '{"seatIds":["A-1-1","A-1-2"]}'
 * curl -X POST localhost:8080/v1/shows/echoes-berlin-1/holds -H "Authorization: Bearer $TOKEN" \
 *      -H 'Content-Type: application/json' -d '{"area":"FLOOR","quantity":2}'
 * curl localhost:8080/v1/holds/$HOLD -H "Authorization: Bearer $TOKEN"
 * curl -X DELETE localhost:8080/v1/holds/$HOLD -H "Authorization: Bearer $TOKEN"
 * </pre>
 * During a rush (the show's waiting room is on) a hold also needs {@code Queue-Pass: <pass>}.
 */
public final class HoldsService implements HttpService {

    private static final io.helidon.http.HeaderName IDEMPOTENCY_KEY = io.helidon.http.HeaderNames.create("Idempotency-Key");
    /** How a kept 201 body begins, so its Location can be read without parsing it. */
    private static final String HOLD_ID_FIRST = "{\"holdId\":\"";

    private final HoldManager holds;
    private final Authenticator auth;
    private final Idempotency idempotency;
    private final AdmissionGate gate;
    private final WaitingRooms rooms;
    private final OpsMetrics metrics;

    public HoldsService(HoldManager holds, Authenticator auth, Idempotency idempotency, AdmissionGate gate,
                        WaitingRooms rooms, OpsMetrics metrics) {
        this.metrics = metrics;
        this.holds = holds;
        this.auth = auth;
        this.idempotency = idempotency;
        this.gate = gate;
        this.rooms = rooms;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/shows/{showId}/holds", this::create)
                .get("/holds/{holdId}", this::get)
                .delete("/holds/{holdId}", this::release);
    }

    /** Counts every hold request by outcome and records its latency. */
    private void create(ServerRequest req, ServerResponse res) {
        long start = System.nanoTime();
        String outcome = "INTERNAL";
        try {
            outcome = createHold(req, res);
        } catch (ApiException e) {
            outcome = e.code();
            throw e;
        } catch (InventoryUnavailableException e) {
            outcome = "GRID_UNAVAILABLE";
            throw e;
        } finally {
            metrics.hold(outcome, System.nanoTime() - start);
        }
    }

    /** Answers one hold request; returns its outcome for the metrics ({@code held} or the error code). */
    private String createHold(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String showId = req.path().pathParameters().get("showId");
        OptionalLong throughRoom = gate.check(req, caller, showId);
        JsonNode body = Json.body(req);
        HoldRequest request = parse(body);
        Optional<String> key = req.headers().first(IDEMPOTENCY_KEY);
        // The hold rules first, once: a refusal at the gate (the seat map shows the seats taken)
        // changes nothing, so it need not be remembered under the request's key. Unless the key is
        // already known: a retry of a request that is running or done (whose own hold may be what
        // the snapshot shows as taken) gets that request's answer.
        HoldAttempt attempt = holds.check(showId, request);
        if (attempt.refusedAtTheGate() && (key.isEmpty() || !idempotency.known(caller.accountId(), key.get()))) {
            Outcome.Refused<HoldView> refused = attempt.refusal().orElseThrow();
            Json.sendBytes(res, Refusals.status(refused.reason()), gateAnswer(refused));
            return Refusals.code(refused.reason());
        }
        // only a hold going on to the grid takes from the account's cluster-wide bucket; the token
        // is asked for now and waited for just before the claim (see AdmissionGate.holdPermit)
        Runnable permit = gate.holdPermit(caller, showId);
        if (key.isEmpty()) {
            Outcome<HoldView> outcome = hold(caller, attempt, throughRoom, permit);
            if (outcome instanceof Outcome.Done<HoldView> held) {
                res.header(HeaderNames.LOCATION, "/v1/holds/" + held.value().holdId());
                Json.sendBytes(res, 201, held.value().json());
            } else {
                Idempotency.Reply reply = reply(outcome);
                Json.sendRaw(res, reply.status(), reply.body());
            }
            return outcomeName(outcome);
        }
        if (!Idempotency.validKey(key.get())) {
            throw ApiException.badRequest(Idempotency.KEY_RULE);
        }
        String fingerprint = "POST /v1/shows/" + showId + "/holds " + Json.write(body);
        String[] name = {"replayed"};   // stays so when the key's kept answer is replayed: not a new hold
        long[] ran = new long[2];       // when the hold began and ended: the stages before and after are the key's
        long asked = System.nanoTime();
        Idempotency.Reply reply = idempotency.execute(caller.accountId(), key.get(), fingerprint, () -> {
            ran[0] = System.nanoTime();
            Outcome<HoldView> outcome = hold(caller, attempt, throughRoom, permit);
            name[0] = outcomeName(outcome);
            Idempotency.Reply r = reply(outcome);
            ran[1] = System.nanoTime();
            return r;
        });
        if (ran[1] != 0) {
            metrics.holdStage("idempotency", ran[0] - asked);
            metrics.holdStage("reply", System.nanoTime() - ran[1]);
        }
        if (reply.status() == 201 && reply.body().startsWith(HOLD_ID_FIRST)) {
            // a new hold or its replay: the kept body starts with the hold id (HoldView.json writes it first)
            int end = reply.body().indexOf('"', HOLD_ID_FIRST.length());
            res.header(HeaderNames.LOCATION, "/v1/holds/" + reply.body().substring(HOLD_ID_FIRST.length(), end));
        }
        Json.sendRaw(res, reply.status(), reply.body());
        return name[0];
    }

    /**
     * The hold, with the account's token waited for before the claim; a hold that did not happen
     * waits for it too, so an account over its limit hears 429 whatever else stopped the hold, as
     * when the token was taken first.
     */
    private Outcome<HoldView> hold(Principal caller, HoldAttempt attempt, OptionalLong throughRoom, Runnable permit) {
        Outcome<HoldView> outcome;
        try {
            outcome = holds.hold(caller, attempt, permit);
        } catch (RuntimeException e) {
            permit.run();
            throw e;
        }
        if (!(outcome instanceof Outcome.Done<HoldView>)) {
            permit.run();
        }
        if (throughRoom.isPresent() && outcome instanceof Outcome.Done<HoldView>) {
            rooms.converted(attempt.showId(), throughRoom.getAsLong());
        }
        return outcome;
    }

    /**
     * The body of a refusal at the gate ({@code 409 SEATS_UNAVAILABLE} with alternatives, or
     * {@code 409 SOLD_OUT} with what is left), written straight to bytes without a JSON tree: in an
     * on-sale most attempts end with it. The same bytes as {@link #reply} writes for it.
     */
    @SuppressWarnings("unchecked")
    static byte[] gateAnswer(Outcome.Refused<HoldView> refused) {
        JsonBytes body = new JsonBytes()
                .field("error", Refusals.code(refused.reason()))
                .field("message", refused.message());
        if (refused.reason() == Rejection.SOLD_OUT) {
            return body.field("left", (Integer) refused.details().get("left")).toBytes();
        }
        return body
                .field("unavailable", (List<String>) refused.details().get("unavailable"))
                .fieldOfLists("alternatives", (List<List<String>>) refused.details().get("alternatives"))
                .toBytes();
    }

    /** The answer to an outcome, as the idempotency record keeps it. */
    private static Idempotency.Reply reply(Outcome<HoldView> outcome) {
        return switch (outcome) {
            case Outcome.Done<HoldView> held -> new Idempotency.Reply(201, new String(held.value().json(),
                    java.nio.charset.StandardCharsets.UTF_8));
            case Outcome.Refused<HoldView> r -> new Idempotency.Reply(Refusals.status(r.reason()), Json.write(Refusals.body(r)));
        };
    }

    private static String outcomeName(Outcome<HoldView> outcome) {
        return outcome instanceof Outcome.Refused<HoldView> r ? Refusals.code(r.reason()) : "held";
    }

    private void get(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String holdId = req.path().pathParameters().get("holdId");
        Json.send(res, 200, holds.find(caller, holdId).orElseThrow(() -> ApiException.notFound("hold " + holdId)));
    }

    private void release(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String holdId = req.path().pathParameters().get("holdId");
        switch (holds.release(caller, holdId)) {
            case HoldManager.Released.Done done -> res.status(204).send();
            case HoldManager.Released.NotFound notFound -> throw ApiException.notFound("hold " + holdId);
            case HoldManager.Released.Confirmed confirmed -> throw Refusals.of(Refusal.HOLD_CONFIRMED,
                    "this hold became a booking; cancel the booking instead");
            case HoldManager.Released.PaymentInProgress paying -> throw Refusals.of(Rejection.PAYMENT_IN_PROGRESS,
                    "a payment for this hold is in progress (" + paying.paymentId() + "); the hold can be released once "
                            + "it is declined, or cancelled as a booking once it is captured", Map.of("paymentId", paying.paymentId()));
        }
    }

    /**
     * Exactly one of {@code seatIds}, {@code bestAvailable}, or {@code area} with {@code quantity}
     * (admissions to a general-admission area); anything else is a 400. A field that is {@code null},
     * and an empty {@code seatIds} beside another shape, count as absent: generated clients send their
     * model's every field, an empty list included.
     */
    static HoldRequest parse(JsonNode body) {
        Set<String> allowed = Set.of("seatIds", "bestAvailable", "area", "quantity");
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!allowed.contains(field)) {
                throw ApiException.badRequest("unknown field '" + field + "'");
            }
        }
        JsonNode seatIds = absentIfNull(body.get("seatIds"));
        JsonNode best = absentIfNull(body.get("bestAvailable"));
        JsonNode area = absentIfNull(body.get("area"));
        JsonNode quantity = absentIfNull(body.get("quantity"));
        boolean byCount = area != null || quantity != null;
        if ((best != null || byCount) && seatIds != null && seatIds.isArray() && seatIds.isEmpty()) {
            seatIds = null;
        }
        if ((seatIds != null ? 1 : 0) + (best != null ? 1 : 0) + (byCount ? 1 : 0) != 1) {
            throw ApiException.badRequest("give exactly one of 'seatIds', 'bestAvailable', or 'area' with 'quantity'");
        }
        if (byCount) {
            if (area == null || !area.isTextual() || area.asText().isBlank() || area.asText().length() > 64) {
                throw ApiException.badRequest("'area' must be the name of a general-admission area");
            }
            if (quantity == null || !quantity.isIntegralNumber() || !quantity.canConvertToInt()) {
                throw ApiException.badRequest("'quantity' must be an integer");
            }
            return new HoldRequest.Admissions(area.asText(), quantity.asInt());
        }
        if (seatIds != null) {
            if (!seatIds.isArray()) {
                throw ApiException.badRequest("'seatIds' must be an array of seat id strings");
            }
            if (seatIds.size() > 1_000) {
                throw ApiException.badRequest("too many seat ids");
            }
            List<String> ids = new ArrayList<>();
            Set<String> seen = new java.util.HashSet<>();
            for (JsonNode n : seatIds) {
                if (!n.isTextual() || n.asText().isBlank() || n.asText().length() > 64) {
                    throw ApiException.badRequest("'seatIds' must be an array of seat id strings");
                }
                if (!seen.add(n.asText())) {
                    throw ApiException.badRequest("seat " + n.asText() + " is listed twice");
                }
                ids.add(n.asText());
            }
            return new HoldRequest.Seats(ids);
        }
        if (!best.isObject()) {
            throw ApiException.badRequest("'bestAvailable' must be an object {\"quantity\": n, \"section\": optional}");
        }
        for (Iterator<String> it = best.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("quantity") && !field.equals("section")) {
                throw ApiException.badRequest("unknown field 'bestAvailable." + field + "'");
            }
        }
        JsonNode bestQuantity = best.get("quantity");
        if (bestQuantity == null || !bestQuantity.canConvertToInt() || !bestQuantity.isIntegralNumber()) {
            throw ApiException.badRequest("'bestAvailable.quantity' must be an integer");
        }
        JsonNode section = best.get("section");
        if (section != null && !section.isNull() && (!section.isTextual() || section.asText().length() > 64)) {
            throw ApiException.badRequest("'bestAvailable.section' must be a section name");
        }
        return new HoldRequest.BestAvailable(bestQuantity.asInt(),
                section == null || section.isNull() || section.asText().isBlank() ? null : section.asText());
    }

    private static JsonNode absentIfNull(JsonNode field) {
        return field == null || field.isNull() ? null : field;
    }
}
