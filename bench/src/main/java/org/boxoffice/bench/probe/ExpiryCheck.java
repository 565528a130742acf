package org.boxoffice.bench.probe;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.load.SeatMap;
import org.boxoffice.bench.load.ShowPlan;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How soon an expired hold is back on sale: holds a few pairs of seats on a show whose holds last
 * {@value #HOLD_SECONDS} s with {@value #GRACE_SECONDS} s of grace, then polls the seat map (as a
 * client would, with If-None-Match) until every held seat shows AVAILABLE again. The lag is
 * measured from expiresAt plus grace, the earliest moment the service may sell the seat again.
 */
public final class ExpiryCheck {

    static final int HOLD_SECONDS = 2;
    static final int GRACE_SECONDS = 1;
    private static final int HOLDS = 5;
    private static final long POLL_MS = 20;
    private static final long GIVE_UP_MS = 30_000;

    /**
     * @param lagsMillis per hold: from expiresAt + grace until the map first showed all its seats available
     */
    public record Result(String showId, int holdSeconds, int graceSeconds, List<Long> lagsMillis, boolean allReturned,
                         long maxLagMillis) {
    }

    private ExpiryCheck() {
    }

    public static Result run(BoxofficeApi api, String adminToken, String eventId) throws IOException, InterruptedException {
        List<ShowPlan.SectionSpec> sections = List.of(new ShowPlan.SectionSpec("X", "10.00", 4, 25));
        JsonNode created = api.createShow(adminToken,
                ShowPlan.createRequest(eventId, sections, HOLD_SECONDS, GRACE_SECONDS, null));
        String showId = created.path("showId").asText();
        ShowPlan plan = ShowPlan.fromShow(api.show(showId));
        List<int[]> held = new ArrayList<>();
        List<Long> returnAfter = new ArrayList<>();
        try (HttpConnection c = api.connect()) {
            for (int i = 0; i < HOLDS; i++) {
                String token = BoxofficeApi.token(c, "expiry-check-" + i, false);
                String a = "X-1-" + (2 * i + 1);
                String b = "X-1-" + (2 * i + 2);
                JsonNode hold = c.post("/v1/shows/" + showId + "/holds", token,
                        "{\"seatIds\":[\"" + a + "\",\"" + b + "\"]}").expect(201, "expiry-check hold").json();
                held.add(new int[]{plan.indexOf(a), plan.indexOf(b)});
                returnAfter.add(Instant.parse(hold.path("expiresAt").asText()).toEpochMilli() + GRACE_SECONDS * 1000L);
            }
            long[] seenAt = new long[HOLDS];
            SeatMap map = new SeatMap(plan.seatCount());
            long deadline = System.currentTimeMillis() + HOLD_SECONDS * 1000L + GRACE_SECONDS * 1000L + GIVE_UP_MS;
            int open = HOLDS;
            while (open > 0 && System.currentTimeMillis() < deadline) {
                HttpResponse r = c.get("/v1/shows/" + showId + "/availability", map.etag());
                long now = System.currentTimeMillis();
                if (r.status() == 200) {
                    map.replace(SeatMap.decode(r.json().path("data").asText(), plan.seatCount()), r.etag());
                }
                for (int i = 0; i < HOLDS; i++) {
                    if (seenAt[i] == 0 && map.etag() != null && map.free(held.get(i)[0]) && map.free(held.get(i)[1])) {
                        seenAt[i] = now;
                        open--;
                    }
                }
                Thread.sleep(POLL_MS);
            }
            List<Long> lags = new ArrayList<>();
            for (int i = 0; i < HOLDS; i++) {
                lags.add(seenAt[i] == 0 ? -1 : seenAt[i] - returnAfter.get(i));
            }
            long max = lags.stream().mapToLong(Long::longValue).max().orElse(-1);
            return new Result(showId, HOLD_SECONDS, GRACE_SECONDS, lags, open == 0, open == 0 ? max : -1);
        }
    }
}
