package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.app.gates.OfflineVerifier;

import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Helpers shared by the door tests: a ticket's signed codes, a gate's offline bundle, and scan uploads. */
final class GateFixture {

    private final CheckoutFixture f;
    private final String staff;

    /** @param staff the token of the staff account the gates use */
    GateFixture(CheckoutFixture f, String staff) {
        this.f = f;
        this.staff = staff;
    }

    /** The holder's signed codes, one per step from the current one, as the ticket app gets them. */
    List<String> signedCodes(String token, long booking, String seat) {
        TestApp.Http.Reply r = f.http.get("/v1/bookings/" + booking + "/tickets/" + seat + "/rotating", token);
        assertEquals(200, r.status(), r.body());
        List<String> codes = new ArrayList<>();
        json(r).get("signed").forEach(s -> codes.add(s.get("code").asText()));
        return codes;
    }

    /** What an offline gate downloads for a show: the show's public key and the revoked codes. */
    record Bundle(PublicKey key, OfflineVerifier.Revocations revocations) {

        /** The offline gate's verdict on {@code code} now (on the system clock), with no network. */
        OfflineVerifier.Verdict verdict(String show, String code) {
            return verdict(show, code, System.currentTimeMillis());
        }

        /** The offline gate's verdict on {@code code} at {@code nowMillis}, with no network. */
        OfflineVerifier.Verdict verdict(String show, String code, long nowMillis) {
            return OfflineVerifier.verify(code, show, key, revocations, nowMillis, Set.of());
        }
    }

    Bundle bundle(String show) throws Exception {
        TestApp.Http.Reply r = f.http.get("/v1/gates/" + show + "/bundle", staff);
        assertEquals(200, r.status(), r.body());
        JsonNode b = json(r);
        PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(
                new X509EncodedKeySpec(Base64.getUrlDecoder().decode(b.get("publicKey").asText())));
        Set<String> revoked = new HashSet<>();
        b.get("revoked").forEach(n -> revoked.add(n.asText()));
        return new Bundle(key, new OfflineVerifier.Revocations(revoked));
    }

    /**
     * An upload of {@code gate}'s scans, each {@code verdict}: pairs of scan id and code, the
     * {@code n}th pair scanned {@code 2n} seconds after {@code at}.
     */
    static String scans(String gate, String verdict, Instant at, String... idAndCode) {
        StringBuilder s = new StringBuilder("{\"gateId\":\"" + gate + "\",\"scans\":[");
        for (int i = 0; i < idAndCode.length; i += 2) {
            s.append(i == 0 ? "" : ",").append("{\"scanId\":\"").append(idAndCode[i]).append("\",\"code\":\"")
                    .append(idAndCode[i + 1]).append("\",\"verdict\":\"").append(verdict)
                    .append("\",\"scannedAt\":\"").append(at.plusSeconds(i)).append("\"}");
        }
        return s.append("]}").toString();
    }

    /** Sends all {@code bodies} to the show's scans at once, each answered 200; returns the scans they recorded in all. */
    int uploadedAtOnce(String show, List<String> bodies) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(bodies.size());
        List<Callable<Integer>> uploads = new ArrayList<>();
        for (String body : bodies) {
            uploads.add(() -> {
                TestApp.Http.Reply r = f.http.post("/v1/gates/" + show + "/scans", staff, body);
                assertEquals(200, r.status(), r.body());
                return json(r).get("recorded").asInt();
            });
        }
        int recorded = 0;
        try {
            for (Future<Integer> u : pool.invokeAll(uploads)) {
                recorded += u.get();
            }
        } finally {
            pool.shutdown();
        }
        return recorded;
    }
}
