package org.boxoffice.app.gates;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.app.http.RequestGuard;
import org.boxoffice.domain.GateRepository;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * What offline gates (role {@code staff}, or {@code admin}) download and upload: a show's public key
 * and revocation list, and scans made offline, kept once per scan id, an admitting one marking its
 * ticket used for the online check ({@code /v1/tickets/verify}); a ticket presented more than once,
 * at one gate or several, is reported.
 *
 * <pre>
 * curl localhost:8080/v1/gates/$SHOW/bundle -H "Authorization: Bearer $STAFF"
 * curl -X POST localhost:8080/v1/gates/$SHOW/scans -H "Authorization: Bearer $STAFF" \
 *   --json '{"gateId":"north-1","scans":[{"scanId":"north-1-7","code":"BXS....","verdict":"ACCEPT","scannedAt":"2031-01-01T19:31:02Z"}]}'
 * curl localhost:8080/v1/gates/$SHOW/duplicates -H "Authorization: Bearer $STAFF"
 * </pre>
 */
public final class GatesService implements HttpService {

    /** At most this many scans per upload. */
    public static final int MAX_SCANS = 500;
    private static final Set<String> VERDICTS = Set.of("ACCEPT", "REVOKED", "EXPIRED_WINDOW", "ALREADY_SCANNED_HERE");

    private final ShowDirectory shows;
    private final GateKeys keys;
    private final GateRepository gates;
    private final Authenticator auth;
    private final LongSupplier clock;

    public GatesService(ShowDirectory shows, GateKeys keys, GateRepository gates, Authenticator auth, LongSupplier clock) {
        this.shows = shows;
        this.keys = keys;
        this.gates = gates;
        this.auth = auth;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/gates/{showId}/bundle", this::bundle)
                .post("/gates/{showId}/scans", this::upload)
                .get("/gates/{showId}/duplicates", this::duplicates);
    }

    private String staffOnShow(ServerRequest req) {
        if (!auth.require(req).hasRole("staff")) {
            throw Refusals.of(Refusal.FORBIDDEN, "gates need the staff or admin role");
        }
        String showId = req.path().pathParameters().get("showId");
        if (!RequestGuard.ID.matcher(showId).matches() || shows.find(showId).isEmpty()) {
            throw ApiException.notFound("show " + showId);
        }
        return showId;
    }

    private void bundle(ServerRequest req, ServerResponse res) {
        String showId = staffOnShow(req);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("showId", showId);
        out.put("publicKey", Base64.getUrlEncoder().withoutPadding().encodeToString(keys.publicKey(showId).getEncoded()));
        out.put("stepSeconds", SignedCodes.STEP_SECONDS);
        out.put("windowSteps", OfflineVerifier.WINDOW_STEPS);
        out.put("generatedAt", Instant.ofEpochMilli(clock.getAsLong()));
        out.put("revoked", gates.revocations(showId));
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        Json.send(res, 200, out);
    }

    private void upload(ServerRequest req, ServerResponse res) {
        String showId = staffOnShow(req);
        JsonNode body = Json.body(req);
        only(body, Set.of("gateId", "scans"), "");
        String gateId = id(body, "gateId", "");
        JsonNode scans = body.get("scans");
        if (scans == null || !scans.isArray() || scans.isEmpty() || scans.size() > MAX_SCANS) {
            throw ApiException.badRequest("'scans' must be an array of 1 to " + MAX_SCANS + " scans");
        }
        // every scan is checked before any is kept: a bad one changes nothing
        List<GateRepository.Scan> read = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < scans.size(); i++) {
            JsonNode s = scans.get(i);
            String at = "scans[" + i + "].";
            if (!s.isObject()) {
                throw ApiException.badRequest("scans[" + i + "] must be an object");
            }
            only(s, Set.of("scanId", "code", "verdict", "scannedAt"), at);
            String scanId = id(s, "scanId", at);
            if (!ids.add(scanId)) {
                throw ApiException.badRequest(at + "scanId '" + scanId + "' appears twice in the upload");
            }
            JsonNode verdict = s.get("verdict");
            if (verdict == null || !verdict.isTextual() || !VERDICTS.contains(verdict.asText())) {
                throw ApiException.badRequest(at + "verdict must be one of " + VERDICTS);
            }
            JsonNode code = s.get("code");
            SignedCodes.Claim claim = code != null && code.isTextual()
                    ? SignedCodes.read(code.asText(), keys.publicKey(showId)).orElse(null) : null;
            if (claim == null || !claim.showId().equals(showId)) {
                throw ApiException.badRequest(at + "code is not a code signed for show " + showId);
            }
            JsonNode scannedAt = s.get("scannedAt");
            long when;
            try {
                when = Instant.parse(scannedAt == null ? "" : scannedAt.asText()).toEpochMilli();
            } catch (DateTimeParseException | ArithmeticException e) {
                throw ApiException.badRequest(at + "scannedAt must be an ISO-8601 instant");
            }
            read.add(new GateRepository.Scan(scanId, claim.bookingId(), claim.seatId(), claim.version(),
                    verdict.asText(), when));
        }
        int recorded = gates.record(showId, gateId, read, clock.getAsLong());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("received", read.size());
        out.put("recorded", recorded);
        out.put("duplicates", duplicates(showId));
        Json.send(res, 200, out);
    }

    private void duplicates(ServerRequest req, ServerResponse res) {
        String showId = staffOnShow(req);
        Json.send(res, 200, Map.of("duplicates", duplicates(showId)));
    }

    private List<Map<String, Object>> duplicates(String showId) {
        return gates.duplicates(showId).stream().map(d -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("bookingId", d.bookingId());
            m.put("seatId", d.seatId());
            m.put("gates", d.scans().stream().map(GateRepository.SeenScan::gateId).distinct().toList());
            m.put("scans", d.scans().stream().map(s -> Map.of("scanId", s.scanId(), "gateId", s.gateId(),
                    "verdict", s.verdict(), "scannedAt", Instant.ofEpochMilli(s.scannedAt()))).toList());
            return m;
        }).toList();
    }

    private static void only(JsonNode node, Set<String> allowed, String at) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!allowed.contains(field)) {
                throw ApiException.badRequest("unknown field '" + at + field + "'");
            }
        }
    }

    private static String id(JsonNode node, String field, String at) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || !RequestGuard.ID.matcher(v.asText()).matches()) {
            throw ApiException.badRequest("'" + at + field + "' must be 1 to 64 of [A-Za-z0-9._~@:-]");
        }
        return v.asText();
    }
}
