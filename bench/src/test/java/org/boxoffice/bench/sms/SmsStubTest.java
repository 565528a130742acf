package org.boxoffice.bench.sms;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stub SMS provider, called as the service's HTTP adapter calls a provider. */
class SmsStubTest {

    private static final String KEY = "stub-key";
    private final AtomicLong clock = new AtomicLong(1_000);
    private final HttpClient client = HttpClient.newHttpClient();
    private SmsStub stub;

    private SmsStub stub(Duration slowAnswer) throws IOException {
        stub = new SmsStub(KEY, slowAnswer, clock::get);
        return stub;
    }

    @AfterEach
    void stop() {
        stub.close();
        client.close();
    }

    private int send(String key, String id, String text, Duration timeout) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(stub.url()).timeout(timeout)
                .header("Authorization", "Bearer " + key).header("Idempotency-Key", id)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"messageId\":\"" + id + "\",\"to\":\"+4915100000001\",\"text\":\""
                        + text + "\"}"))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private int send(String id, String text) throws Exception {
        return send(KEY, id, text, Duration.ofSeconds(5));
    }

    @Test
    void prompt_deliversAMessageOnce_andAnswersARepeatOfItsId409() throws Exception {
        stub(Duration.ofSeconds(5));
        assertEquals(202, send("sms-1", "Boxoffice: booking 41, Midnight Echoes"));
        clock.set(2_000);
        assertEquals(409, send("sms-1", "Boxoffice: booking 41, Midnight Echoes"));

        assertEquals(new SmsStub.Delivery("sms-1", 1_000, "41"), stub.delivery("sms-1"), "delivered when first called");
        assertEquals(new SmsStub.Calls(1, 1, 0, 0, 0), stub.calls());
        assertTrue(stub.bookingsDeliveredTwice().isEmpty());
    }

    @Test
    void slow_deliversOnArrival_butAnswersSoLateThatTheCallerGivesUp_andItsRepeatIsADuplicate() throws Exception {
        stub(Duration.ofMillis(1_500));
        stub.mode(SmsStub.Mode.SLOW);
        long t0 = System.nanoTime();
        assertThrows(HttpTimeoutException.class, () -> send(KEY, "sms-2", "booking 42", Duration.ofMillis(300)));
        assertNotNull(stub.delivery("sms-2"), "the message reached the phone although its answer never came");
        assertTrue(System.nanoTime() - t0 < 1_400_000_000L, "the caller's timeout, not the stub, ended the call");

        long t1 = System.nanoTime();
        assertEquals(409, send("sms-2", "booking 42"), "a slow answer comes all the same");
        assertTrue(System.nanoTime() - t1 >= 1_400_000_000L, "answered only after the slow delay");

        stub.mode(SmsStub.Mode.PROMPT);
        assertEquals(409, send("sms-2", "booking 42"));
        assertEquals(1, stub.calls().delivered());
        assertEquals(2, stub.calls().slow());
    }

    @Test
    void failing_answers503AndDeliversNothing_untilItRecovers() throws Exception {
        stub(Duration.ofSeconds(5));
        stub.mode(SmsStub.Mode.FAILING);
        assertEquals(503, send("sms-3", "booking 43"));
        assertEquals(503, send("sms-3", "booking 43"));
        assertNull(stub.delivery("sms-3"));

        stub.mode(SmsStub.Mode.PROMPT);
        clock.set(9_000);
        assertEquals(202, send("sms-3", "booking 43"));
        assertEquals(9_000, stub.delivery("sms-3").deliveredAt(), "delivered when it recovered");
        assertEquals(new SmsStub.Calls(1, 0, 0, 2, 0), stub.calls());
    }

    @Test
    void aCallWithAnotherKey_orAnIdempotencyKeyNotItsMessageId_isRefused() throws Exception {
        stub(Duration.ofSeconds(5));
        assertEquals(400, send("not-the-key", "sms-4", "booking 44", Duration.ofSeconds(5)));
        HttpRequest mismatched = HttpRequest.newBuilder(stub.url())
                .header("Authorization", "Bearer " + KEY).header("Idempotency-Key", "sms-5")
                .POST(HttpRequest.BodyPublishers.ofString("{\"messageId\":\"sms-6\",\"to\":\"+4915100000001\",\"text\":\"x\"}"))
                .build();
        assertEquals(400, client.send(mismatched, HttpResponse.BodyHandlers.discarding()).statusCode());
        assertEquals(2, stub.calls().refused());
        assertTrue(stub.deliveries().isEmpty());
    }

    @Test
    void aBookingToldUnderTwoMessageIds_isCountedAsDeliveredTwice() throws Exception {
        stub(Duration.ofSeconds(5));
        assertEquals(202, send("sms-7", "Boxoffice: booking 47, x"));
        assertEquals(202, send("sms-8", "Boxoffice: booking 47, x"));
        assertEquals(202, send("sms-9", "Boxoffice: booking 49, x"));
        assertEquals(202, send("sms-10", "Your hold lapsed"));
        assertEquals(Map.of("47", 2), stub.bookingsDeliveredTwice());
    }
}
