package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.payments.SimulatedPaymentGateway;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Helpers shared by the checkout tests: requests, database probes and waiting. */
final class CheckoutFixture {

    final TestApp app;
    final TestApp.Http http;

    CheckoutFixture(TestApp app, URI base) {
        this.app = app;
        this.http = TestApp.Http.on(base);
        app.simulator().deliverTo(base.resolve("/v1/payments/webhook"));
    }

    /** Checkout settings for tests: the given simulator, reconciliation only when a test asks. */
    static CheckoutSettings settings(SimulatedPaymentGateway.Settings simulator) {
        return CheckoutSettings.defaults().withProvider(simulator);
    }

    /** The reliable simulator with webhooks duplicated and shuffled. */
    static SimulatedPaymentGateway.Settings noisyWebhooks() {
        SimulatedPaymentGateway.Settings r = SimulatedPaymentGateway.Settings.reliable();
        return new SimulatedPaymentGateway.Settings(r.minLatency(), r.maxLatency(), 0, 0, 0, r.lateDelay(), 0, 0.5,
                Duration.ofMillis(150), r.webhookAttempts(), null, 7);
    }

    static JsonNode json(TestApp.Http.Reply r) {
        return TestApp.json(r);
    }

    static void assertError(TestApp.Http.Reply r, int status, String code) {
        TestApp.assertError(r, status, code);
    }

    /** Holds the seats; returns the hold id. */
    String hold(String token, String show, String... seats) {
        StringBuilder body = new StringBuilder("{\"seatIds\":[");
        for (int i = 0; i < seats.length; i++) {
            body.append(i > 0 ? "," : "").append('"').append(seats[i]).append('"');
        }
        TestApp.Http.Reply r = http.post("/v1/shows/" + show + "/holds", token, body.append("]}").toString());
        assertEquals(201, r.status(), r.body());
        return json(r).get("holdId").asText();
    }

    /** Holds the seats and pays for them with a card that works; returns the booking id. */
    long book(String token, String show, String... seats) {
        TestApp.Http.Reply r = checkout(token, hold(token, show, seats), "card_ok");
        assertEquals(200, r.status(), r.body());
        return json(r).get("bookingId").asLong();
    }

    /** {@code from} offers the ticket of {@code seat} to {@code toAccount}, who accepts it with {@code toToken}. */
    void transfer(String from, long booking, String seat, String toAccount, String toToken) {
        TestApp.Http.Reply offered = http.post("/v1/bookings/" + booking + "/tickets/" + seat + "/transfers", from,
                "{\"toAccountId\":\"" + toAccount + "\"}");
        assertEquals(201, offered.status(), offered.body());
        long transferId = json(offered).get("transferId").asLong();
        assertEquals(200, http.post("/v1/transfers/" + transferId + "/accept", toToken, null).status());
    }

    /** What the online check tells a door (a staff account) of {@code code}: VALID, ALREADY_USED, INVALID, ... */
    String gate(String code) {
        return json(http.post("/v1/tickets/verify", app.token("gate", "staff"), "{\"code\":\"" + code + "\"}"))
                .get("status").asText();
    }

    TestApp.Http.Reply checkout(String token, String holdId, String method) {
        return checkout(token, holdId, method, UUID.randomUUID().toString());
    }

    TestApp.Http.Reply checkout(String token, String holdId, String method, String key) {
        return http.post("/v1/holds/" + holdId + "/checkout", token, "{\"paymentMethod\":\"" + method + "\"}",
                "Idempotency-Key", key);
    }

    /** A show of one section, {@code rows} x 10 seats at 5.00, holds lasting {@code holdSeconds} and no grace. */
    void createShow(String showId, int holdSeconds, int rows) {
        createShow(showId, holdSeconds, rows, 10, null);
    }

    /**
     * A show of Fado Nights with one section A, {@code rows} x {@code seatsPerRow} seats at 5.00, holds
     * lasting {@code holdSeconds} and no grace, sales closing at {@code saleClosesAt} (null: when the
     * show starts, in 2031).
     */
    void createShow(String showId, int holdSeconds, int rows, int seatsPerRow, Instant saleClosesAt) {
        String admin = app.token("ops", "admin");
        TestApp.Http.Reply r = http.post("/v1/admin/shows", admin, "{\"eventId\":\"fado-nights\",\"showId\":\"" + showId
                + "\",\"startsAt\":\"2031-01-01T20:00:00Z\",\"holdSeconds\":" + holdSeconds + ",\"graceSeconds\":0,"
                + "\"maxPerAccount\":100" + (saleClosesAt == null ? "" : ",\"saleClosesAt\":\"" + saleClosesAt + "\"")
                + ",\"sections\":[{\"name\":\"A\",\"price\":\"5.00\",\"rows\":" + rows
                + ",\"seatsPerRow\":" + seatsPerRow + "}]}");
        assertEquals(201, r.status(), r.body());
    }

    /** Adds the general admission area FLOOR to the show: {@code capacity} admissions at {@code price}, in {@code stripes} stripes. */
    void createFloor(String showId, int capacity, String price, int stripes) {
        TestApp.Http.Reply r = http.post("/v1/admin/shows/" + showId + "/areas", app.token("ops", "admin"), "{\"name\":\"FLOOR\","
                + "\"capacity\":" + capacity + ",\"price\":\"" + price + "\",\"stripes\":" + stripes + "}");
        assertEquals(201, r.status(), r.body());
    }

    /**
     * {@code tabs} checkouts of one hold sent at once, each with a key of its own (a fan's open tabs):
     * each answer books it or is refused 409 {@code PAYMENT_IN_PROGRESS}, and every booking answer
     * names the same booking, which is returned.
     */
    long checkoutsAtOnce(String token, String holdId, int tabs) throws Exception {
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<TestApp.Http.Reply>> replies = new ArrayList<>();
        java.util.Set<Long> bookingIds = new java.util.HashSet<>();
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(tabs)) {
            for (int i = 0; i < tabs; i++) {
                String key = "tab-" + holdId + "-" + i;
                replies.add(pool.submit(() -> {
                    go.await();
                    return checkout(token, holdId, "card_ok", key);
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<TestApp.Http.Reply> r : replies) {
                TestApp.Http.Reply reply = r.get();
                if (reply.status() == 200) {
                    assertEquals("BOOKED", json(reply).get("status").asText());
                    bookingIds.add(json(reply).get("bookingId").asLong());
                } else {
                    assertError(reply, 409, "PAYMENT_IN_PROGRESS");
                }
            }
        }
        assertEquals(1, bookingIds.size(), "one checkout books the hold, and every 200 names the same booking");
        return bookingIds.iterator().next();
    }

    /** Once all is quiet: the hold was charged once at the provider, never refunded, and booked once. */
    void assertChargedOnceAndBookedOnce(String holdId) {
        quiet();
        String prefix = "bx-" + holdId + "-";
        assertEquals(1, app.simulator().ledger().stream()
                .filter(c -> c.idempotencyKey().startsWith(prefix)).count(), "exactly one charge at the provider");
        assertEquals(1, count("select count(*) from payments where hold_id = ?", holdId));
        assertEquals(0, count("select count(*) from payments where hold_id = ? and refund <> 'NONE'", holdId));
        assertEquals(1, count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId));
    }

    long count(String sql, Object... params) {
        return query(sql, params).isEmpty() ? 0 : Long.parseLong(query(sql, params).get(0));
    }

    String one(String sql, Object... params) {
        List<String> rows = query(sql, params);
        return rows.isEmpty() ? null : rows.get(0);
    }

    List<String> query(String sql, Object... params) {
        try (Connection c = app.dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        } catch (Exception e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static boolean waitFor(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Waits until the simulator has nothing left to deliver. */
    void quiet() {
        try {
            assertTrue(app.simulator().awaitQuiet(Duration.ofSeconds(20)), "simulator still busy");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** SOLD rows of a seat: never more than one, whatever happened. */
    long soldRows(String show, String seat) {
        return count("select count(*) from seats where show_id = ? and seat_id = ? and state = 'SOLD'", show, seat);
    }

    /** The invariant every money test ends with: captured - refunded = sum of confirmed bookings. */
    void assertMoneyConserved() {
        long captured = app.simulator().capturedCents();
        long refunded = app.simulator().refundedCents();
        long booked = count("select coalesce(sum(amount_cents), 0) from bookings where status = 'CONFIRMED'");
        assertEquals(booked, captured - refunded, "captured " + captured + " - refunded " + refunded
                + " must equal the confirmed bookings");
    }
}
