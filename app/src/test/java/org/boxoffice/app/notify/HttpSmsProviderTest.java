package org.boxoffice.app.notify;

import com.sun.net.httpserver.HttpServer;
import org.boxoffice.domain.PhoneNumber;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP SMS adapter against a scripted stub provider on loopback. */
class HttpSmsProviderTest {

    private static final PhoneNumber TO = new PhoneNumber("+4915112345678");

    private final Deque<Integer> answers = new ArrayDeque<>();
    private final List<String> calls = new ArrayList<>();
    private HttpServer server;

    private HttpSmsProvider provider(int retries, Integer... statuses) throws IOException {
        answers.addAll(List.of(statuses));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/sms", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (calls) {
                calls.add(exchange.getRequestHeaders().getFirst("Authorization") + " | "
                        + exchange.getRequestHeaders().getFirst("Idempotency-Key") + " | " + body);
            }
            Integer status = answers.poll();
            exchange.sendResponseHeaders(status == null ? 202 : status, -1);
            exchange.close();
        });
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sms");
        return new HttpSmsProvider(NotifySettings.SmsSettings.simulator().withHttp(url, "key-1", Duration.ofSeconds(2), retries));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aMessage_isOneJsonCall_withTheKeyAndItsIdAsIdempotencyKey() throws Exception {
        try (HttpSmsProvider sms = provider(2, 202)) {
            sms.send("sms-7", TO, "hello");
        }
        assertEquals(List.of("Bearer key-1 | sms-7 | {\"messageId\":\"sms-7\",\"to\":\"+4915112345678\",\"text\":\"hello\"}"),
                calls);
    }

    @Test
    void serverErrors_areRetriedWithTheSameId_andADuplicateAnswerIsSuccess() throws Exception {
        try (HttpSmsProvider sms = provider(2, 500, 503, 409)) {
            sms.send("sms-8", TO, "hi");
        }
        assertEquals(3, calls.size());
        assertTrue(calls.stream().allMatch(c -> c.contains("| sms-8 |")), calls.toString());
    }

    @Test
    void aRefusedRequest_isNotRetried_andTheErrorNeverNamesTheNumber() throws Exception {
        try (HttpSmsProvider sms = provider(2, 400)) {
            SmsProvider.SmsException e = assertThrows(SmsProvider.SmsException.class, () -> sms.send("sms-9", TO, "x"));
            assertFalse(e.getMessage().contains("12345678"), e.getMessage());
        }
        assertEquals(1, calls.size());
    }

    @Test
    void afterItsRetries_aSendFails_forTheOutboxToTryAgainLater() throws Exception {
        try (HttpSmsProvider sms = provider(1, 500, 500, 202)) {
            assertThrows(SmsProvider.SmsException.class, () -> sms.send("sms-10", TO, "x"));
            assertEquals(2, calls.size());
            assertEquals(Duration.ofMillis(2 * 2_000 + 250), sms.longestSend());
        }
    }
}
