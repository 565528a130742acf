package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.checkout.TransferSettings;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tickets changing hands through the API, with PostgreSQL deciding every race. */
@ServerTest
class TicketTransferTest {

    private static final String SHOW = "tx-1";
    private static final int PER_BOOKING = 3;
    private static TestApp app;
    private final CheckoutFixture f;

    TicketTransferTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutSettings.defaults()
                .withTransfers(new TransferSettings(PER_BOOKING, Duration.ofMinutes(60)))));
    }

    private String codeOf(long bookingId, String token, String seat) {
        for (JsonNode t : json(f.http.get("/v1/bookings/" + bookingId, token)).get("tickets")) {
            if (t.get("seatId").asText().equals(seat)) {
                return t.get("code").asText();
            }
        }
        return null;
    }

    private TestApp.Http.Reply offer(String token, long bookingId, String seat, String to) {
        return f.http.post("/v1/bookings/" + bookingId + "/tickets/" + seat + "/transfers", token,
                "{\"toAccountId\":\"" + to + "\"}");
    }

    /**
     * Runs {@code calls} on threads of their own, released together once every one is waiting, and
     * answers their results in order: the race the referee must decide.
     */
    private static <T> List<T> atOnce(List<Callable<T>> calls) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(calls.size());
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> call : calls) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** An accept of a transfer and another request that races it, as they were answered. */
    private record Raced(TestApp.Http.Reply accept, TestApp.Http.Reply other) {
    }

    /** {@code token}'s accept of transfer {@code id} and {@code other}, released together. */
    private Raced acceptRacing(long id, String token, Callable<TestApp.Http.Reply> other) throws Exception {
        List<TestApp.Http.Reply> replies = atOnce(List.of(
                () -> f.http.post("/v1/transfers/" + id + "/accept", token, null), other));
        return new Raced(replies.get(0), replies.get(1));
    }

    @Test
    void myBookings_readInAFixedNumberOfStatements_answerEachBookingAsItsOwnPageDoes() {
        // BookingManager.mine reads the bookings, their tickets and their transfers in three statements
        // (PostgresBookingRepositoryTest counts them); here: the list says what each booking's own page says
        f.createShow("tx-mine", 300, 2);
        String cyd = app.token("cyd-t");
        java.util.List<Long> ids = new java.util.ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            ids.add(f.book(cyd, "tx-mine", "A-1-" + i));
        }
        long shared = f.book(cyd, "tx-mine", "A-2-1", "A-2-2");
        ids.add(shared);
        long transferId = json(offer(cyd, shared, "A-2-1", "dan-t")).get("transferId").asLong();
        assertEquals(200, f.http.post("/v1/transfers/" + transferId + "/accept", app.token("dan-t"), null).status());
        long open = json(offer(cyd, ids.get(0), "A-1-1", "eve-t")).get("transferId").asLong();
        assertEquals(200, f.http.delete("/v1/bookings/" + ids.get(1), cyd).status());

        JsonNode mine = json(f.http.get("/v1/accounts/me/bookings", cyd)).get("bookings");
        assertEquals(ids.size(), mine.size());
        for (int i = 0; i < mine.size(); i++) {
            long id = ids.get(ids.size() - 1 - i); // newest first
            assertEquals(json(f.http.get("/v1/bookings/" + id, cyd)), mine.get(i), "booking " + id);
        }
        JsonNode sharedView = mine.get(0);
        assertEquals(1, sharedView.get("tickets").size(), "the ticket passed on is dan's now");
        assertEquals(1, sharedView.get("transfers").size());
        assertEquals(open, mine.get(ids.size() - 1).get("transfers").get(0).get("transferId").asLong());
        assertEquals("CANCELLED", mine.get(ids.size() - 2).get("status").asText());
        assertEquals(0, mine.get(ids.size() - 2).get("tickets").size());
        assertEquals(0, json(f.http.get("/v1/accounts/me/bookings", app.token("dan-t"))).get("bookings").size());
    }

    @Test
    void aTransferredTicket_isTheRecipients_withANewCode_andTheOldOneStopsAtOnce() {
        f.createShow(SHOW, 300, 4);
        String amy = app.token("amy-t");
        String bob = app.token("bob-t");
        long booking = f.book(amy, SHOW, "A-1-1", "A-1-2");
        String oldCode = codeOf(booking, amy, "A-1-1");

        TestApp.Http.Reply offered = offer(amy, booking, "A-1-1", "bob-t");
        assertEquals(201, offered.status(), offered.body());
        long transferId = json(offered).get("transferId").asLong();
        assertEquals("OFFERED", json(offered).get("status").asText());
        assertEquals("/v1/transfers/" + transferId, offered.headers().firstValue("Location").orElseThrow());
        assertEquals(transferId, json(f.http.get("/v1/accounts/me/transfers", bob)).get("transfers").get(0)
                .get("transferId").asLong(), "the recipient sees the offer");
        assertEquals("VALID", f.gate(codeOf(booking, amy, "A-1-2")), "until accepted, the holder's codes work as ever");

        TestApp.Http.Reply accepted = f.http.post("/v1/transfers/" + transferId + "/accept", bob, null);
        assertEquals(200, accepted.status(), accepted.body());
        String newCode = json(accepted).get("ticket").get("code").asText();
        assertNotEquals(oldCode, newCode);
        assertEquals("INVALID", f.gate(oldCode), "the old code stops working at once");
        assertEquals("VALID", f.gate(newCode));
        assertEquals("ALREADY_USED", f.gate(newCode));

        JsonNode view = json(f.http.get("/v1/bookings/" + booking, amy));
        assertEquals(1, view.get("tickets").size(), "the booking lists only the ticket its account still holds");
        assertEquals("A-1-2", view.get("tickets").get(0).get("seatId").asText());
        assertEquals("ACCEPTED", view.get("transfers").get(0).get("status").asText(), "the booking's history shows it");
        assertEquals("bob-t", view.get("transfers").get(0).get("toAccountId").asText());
        assertEquals(1, json(f.http.get("/v1/accounts/me/tickets", bob)).get("tickets").size());
        assertEquals(200, f.http.get("/v1/bookings/" + booking + "/tickets/A-1-1/qr.png", bob).status());
        assertEquals(404, f.http.get("/v1/bookings/" + booking + "/tickets/A-1-1/qr.png", amy).status());

        assertError(f.http.post("/v1/transfers/" + transferId + "/accept", bob, null), 409, "TRANSFER_DECIDED");
        assertError(offer(amy, booking, "A-1-1", "cy-t"), 404, "NOT_FOUND");
        assertError(f.http.delete("/v1/bookings/" + booking, amy), 409, "TICKET_TRANSFERRED");
        assertEquals("CONFIRMED", json(f.http.get("/v1/bookings/" + booking, amy)).get("status").asText());
    }

    @Test
    void twentyParallelTransfersOfOneTicket_endWithOneNewHolder_andOneValidCode() throws Exception {
        f.createShow("tx-2", 300, 2);
        String amy = app.token("amy-r");
        long booking = f.book(amy, "tx-2", "A-2-5");
        String oldCode = codeOf(booking, amy, "A-2-5");
        List<Callable<String>> transfers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String to = "fan-r-" + i;
            transfers.add(() -> {
                TestApp.Http.Reply o = offer(amy, booking, "A-2-5", to);
                if (o.status() != 201) {
                    return null;
                }
                long id = json(o).get("transferId").asLong();
                TestApp.Http.Reply a = f.http.post("/v1/transfers/" + id + "/accept", app.token(to), null);
                return a.status() == 200 ? json(a).get("ticket").get("code").asText() : null;
            });
        }
        List<String> codes = atOnce(transfers).stream().filter(Objects::nonNull).toList();

        assertEquals(1, codes.size(), "one transfer went through");
        assertEquals(1, f.count("SELECT count(*) FROM ticket_transfers WHERE booking_id = ? AND status = 'ACCEPTED'", booking));
        assertEquals(1, f.count("SELECT code_version FROM booking_seats WHERE booking_id = ?", booking));
        assertEquals("INVALID", f.gate(oldCode));
        assertEquals("VALID", f.gate(codes.get(0)), "the one valid code is the new holder's");
    }

    @Test
    void twentyParallelAcceptsOfOneOffer_endWithOneNewHolder_andOneValidCode() throws Exception {
        f.createShow("tx-accepts", 300, 2);
        String amy = app.token("amy-a");
        String bob = app.token("bob-a");
        long booking = f.book(amy, "tx-accepts", "A-1-3");
        String oldCode = codeOf(booking, amy, "A-1-3");
        long id = json(offer(amy, booking, "A-1-3", "bob-a")).get("transferId").asLong();
        List<TestApp.Http.Reply> replies = atOnce(Collections.nCopies(20,
                () -> f.http.post("/v1/transfers/" + id + "/accept", bob, null)));

        List<TestApp.Http.Reply> took = replies.stream().filter(r -> r.status() == 200).toList();
        assertEquals(1, took.size(), "one accept went through: " + replies.stream().map(TestApp.Http.Reply::status).toList());
        replies.stream().filter(r -> r.status() != 200).forEach(r -> assertError(r, 409, "TRANSFER_DECIDED"));
        String newCode = json(took.get(0)).get("ticket").get("code").asText();
        assertEquals("bob-a", f.one("SELECT holder FROM booking_seats WHERE booking_id = ? AND seat_id = 'A-1-3'", booking));
        assertEquals(1, f.count("SELECT code_version FROM booking_seats WHERE booking_id = ?", booking),
                "the code was re-issued once");
        assertEquals(1, f.count("SELECT transfers FROM bookings WHERE booking_id = ?", booking), "counted once");
        assertEquals(1, json(f.http.get("/v1/accounts/me/tickets", bob)).get("tickets").size());
        assertEquals("INVALID", f.gate(oldCode));
        assertEquals("VALID", f.gate(newCode), "the one valid code is the new holder's");
    }

    /** A round of a race: amy-TAG{round} booked {@code row}{round + 1} of {@code show} and offered it to bob-TAG{round}. */
    private record Offered(String seat, String amyToken, String bobToken, long booking, String oldCode, long id) {
    }

    private Offered offered(String show, String row, String tag, int round) {
        String seat = row + (round + 1);
        String amy = app.token("amy-" + tag + round);
        String bob = app.token("bob-" + tag + round);
        long booking = f.book(amy, show, seat);
        String oldCode = codeOf(booking, amy, seat);
        long id = json(offer(amy, booking, seat, "bob-" + tag + round)).get("transferId").asLong();
        return new Offered(seat, amy, bob, booking, oldCode, id);
    }

    @Test
    void anOfferTakenBackWhileItIsAccepted_endsWithOneOfThem_andTheCodesToMatch() throws Exception {
        f.createShow("tx-withdraw", 300, 2);
        int accepted = 0;
        int takenBack = 0;
        for (int round = 0; round < 6; round++) {
            Offered o = offered("tx-withdraw", "A-2-", "w", round);
            String seat = o.seat();
            String bob = o.bobToken();
            long booking = o.booking();
            String oldCode = o.oldCode();
            long id = o.id();
            Raced raced = acceptRacing(id, bob, () -> f.http.delete("/v1/transfers/" + id, o.amyToken()));
            TestApp.Http.Reply accept = raced.accept();
            TestApp.Http.Reply withdraw = raced.other();
            boolean took = accept.status() == 200;
            boolean withdrawn = withdraw.status() / 100 == 2;
            assertTrue(took != withdrawn, "exactly one wins: " + accept.status() + " " + accept.body()
                    + " / " + withdraw.status() + " " + withdraw.body());
            if (!took) {
                assertError(accept, 409, "TRANSFER_DECIDED");
            }
            accepted += took ? 1 : 0;
            takenBack += withdrawn ? 1 : 0;
            assertEquals(took ? "ACCEPTED" : "CANCELLED",
                    f.one("SELECT status FROM ticket_transfers WHERE transfer_id = ?", id));
            assertEquals(took ? "bob-w" + round : null,
                    f.one("SELECT holder FROM booking_seats WHERE booking_id = ? AND seat_id = ?", booking, seat));
            if (took) {
                assertEquals("INVALID", f.gate(oldCode));
                assertEquals("VALID", f.gate(json(accept).get("ticket").get("code").asText()));
            } else {
                assertEquals("VALID", f.gate(oldCode), "a withdrawn offer leaves the holder's code as it was");
                assertEquals(0, json(f.http.get("/v1/accounts/me/tickets", bob)).get("tickets").size());
            }
        }
        assertEquals(6, accepted + takenBack);
    }

    @Test
    void aSecondOfferRacingTheFirstsAccept_neverHandsTheTicketOnTwice() throws Exception {
        f.createShow("tx-second", 300, 2);
        for (int round = 0; round < 6; round++) {
            Offered o = offered("tx-second", "A-1-", "s", round);
            String seat = o.seat();
            long booking = o.booking();
            String oldCode = o.oldCode();
            String cy = "cy-s" + round;
            Raced raced = acceptRacing(o.id(), o.bobToken(), () -> offer(o.amyToken(), booking, seat, cy));
            TestApp.Http.Reply accept = raced.accept();
            TestApp.Http.Reply second = raced.other();
            assertEquals(200, accept.status(), "the first offer is still open, so its accept goes through: "
                    + accept.body());
            assertTrue(second.status() == 409 || second.status() == 404,
                    "a second offer of a ticket on offer, or no longer the giver's, is refused: " + second.status()
                            + " " + second.body());
            assertEquals("bob-s" + round,
                    f.one("SELECT holder FROM booking_seats WHERE booking_id = ? AND seat_id = ?", booking, seat));
            assertEquals(List.of("ACCEPTED"), f.query("SELECT status FROM ticket_transfers WHERE booking_id = ? "
                    + "AND seat_id = ?", booking, seat), "no second offer was recorded");
            assertEquals("INVALID", f.gate(oldCode));
            assertEquals("VALID", f.gate(json(accept).get("ticket").get("code").asText()));
        }
    }

    @Test
    void aCancellationRacingAnAccept_endsWithOneOfThem() throws Exception {
        f.createShow("tx-3", 300, 2);
        int accepted = 0;
        int cancelled = 0;
        for (int round = 0; round < 6; round++) {
            String amy = app.token("amy-c" + round);
            String bob = app.token("bob-c" + round);
            long booking = f.book(amy, "tx-3", "A-1-" + (round + 1));
            long id = json(offer(amy, booking, "A-1-" + (round + 1), "bob-c" + round)).get("transferId").asLong();
            Raced raced = acceptRacing(id, bob, () -> f.http.delete("/v1/bookings/" + booking, amy));
            TestApp.Http.Reply accept = raced.accept();
            TestApp.Http.Reply cancel = raced.other();
            boolean took = accept.status() == 200;
            boolean refunded = cancel.status() == 200;
            assertTrue(took != refunded, "exactly one wins: " + accept.body() + " / " + cancel.body());
            accepted += took ? 1 : 0;
            cancelled += refunded ? 1 : 0;
            String status = f.one("SELECT status FROM bookings WHERE booking_id = ?", booking);
            assertEquals(took ? "CONFIRMED" : "CANCELLED", status);
            assertEquals(took ? "ACCEPTED" : "REFUSED",
                    f.one("SELECT status FROM ticket_transfers WHERE transfer_id = ?", id));
        }
        assertEquals(6, accepted + cancelled);
        f.quiet();
        f.assertMoneyConserved();
    }

    @Test
    void aBookingsTicketsChangeHands_atMostItsLimit_andNotNearTheShow() {
        f.createShow("tx-4", 300, 2);
        String amy = app.token("amy-l");
        long booking = f.book(amy, "tx-4", "A-1-1");
        String holder = "amy-l";
        for (int i = 0; i < PER_BOOKING; i++) {
            String next = "next-l-" + i;
            long id = json(offer(app.token(holder), booking, "A-1-1", next)).get("transferId").asLong();
            assertEquals(200, f.http.post("/v1/transfers/" + id + "/accept", app.token(next), null).status());
            holder = next;
        }
        assertError(offer(app.token(holder), booking, "A-1-1", "one-too-many"), 422, "TRANSFER_LIMIT");

        String admin = app.token("ops", "admin");
        Instant soon = Instant.now().plus(Duration.ofMinutes(30));
        TestApp.Http.Reply created = f.http.post("/v1/admin/shows", admin, "{\"eventId\":\"fado-nights\",\"showId\":\"tx-5\","
                + "\"startsAt\":\"" + soon + "\",\"holdSeconds\":300,\"graceSeconds\":0,\"maxPerAccount\":100,"
                + "\"sections\":[{\"name\":\"A\",\"price\":\"5.00\",\"rows\":1,\"seatsPerRow\":10}]}");
        assertEquals(201, created.status(), created.body());
        long late = f.book(amy, "tx-5", "A-1-1");
        assertError(offer(amy, late, "A-1-1", "bob-l"), 422, "TRANSFER_CLOSED");
        assertError(offer(amy, late, "A-1-1", "amy-l"), 400, "BAD_REQUEST");
        assertFalse(json(f.http.get("/v1/accounts/me/transfers", amy)).get("transfers").isEmpty());
    }
}
