package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.waitlist.WaitlistOffers;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Helpers shared by the waitlist tests: small sold-out shows, joining, standings and offers. */
final class WaitlistFixture {

    final TestApp app;
    final CheckoutFixture f;
    final TestApp.Http http;

    WaitlistFixture(TestApp app, URI base) {
        this.app = app;
        this.f = new CheckoutFixture(app, base);
        this.http = f.http;
    }

    WaitlistOffers offers() {
        return app.app.waitlist().offers();
    }

    /**
     * A show of one section A, {@code rows} rows of {@code seatsPerRow} seats, holds of 7 minutes
     * without grace, sales closing at {@code saleClosesAt} (null: when the show starts, in 2031).
     */
    Show createShow(String showId, int rows, int seatsPerRow, Instant saleClosesAt) {
        f.createShow(showId, 420, rows, seatsPerRow, saleClosesAt);
        return app.app.directory().find(showId).orElseThrow();
    }

    /** Holds the seats for {@code account}; returns the hold id. */
    String hold(String account, String show, String... seats) {
        return f.hold(app.token(account), show, seats);
    }

    void release(String account, String holdId) {
        TestApp.Http.Reply r = http.delete("/v1/holds/" + holdId, app.token(account));
        assertEquals(204, r.status(), r.body());
    }

    TestApp.Http.Reply join(String account, String show, int quantity) {
        return http.post("/v1/shows/" + show + "/waitlist", app.token(account), "{\"quantity\":" + quantity + "}");
    }

    /** Joins and checks it worked; returns the position. */
    long joined(String account, String show, int quantity) {
        TestApp.Http.Reply r = join(account, show, quantity);
        assertEquals(201, r.status(), r.body());
        return r.json().get("position").asLong();
    }

    JsonNode standing(String account, String show) {
        TestApp.Http.Reply r = http.get("/v1/shows/" + show + "/waitlist/me", app.token(account));
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    String status(String account, String show) {
        return standing(account, show).get("status").asText();
    }

    /** Waits until the account's entry has {@code status}; returns the entry. */
    JsonNode awaitStatus(String account, String show, String status) {
        assertTrue(CheckoutFixture.waitFor(() -> status.equals(status(account, show)), Duration.ofSeconds(15)),
                account + " never reached " + status + ": " + standing(account, show));
        return standing(account, show);
    }

    JsonNode offersOf(String account) {
        TestApp.Http.Reply r = http.get("/v1/accounts/me/offers", app.token(account));
        assertEquals(200, r.status(), r.body());
        return r.json().get("offers");
    }

    static List<String> seats(JsonNode standing) {
        List<String> out = new java.util.ArrayList<>();
        standing.get("offer").get("seatIds").forEach(s -> out.add(s.asText()));
        return out;
    }

    long count(String sql, Object... params) {
        return f.count(sql, params);
    }

    List<String> query(String sql, Object... params) {
        return f.query(sql, params);
    }

    /** Seats of the show that some hold made for a waitlist offer ever held, counted per seat: never above 1 here. */
    long seatsOfferedTwice(String show) {
        return count("select count(*) from (select seat_id from seat_events where show_id = ? and kind = 'HOLD' "
                + "and hold_id like 'W%' group by seat_id having count(*) > 1) t", show);
    }
}
