package org.boxoffice.bench.sms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An SMS provider on loopback as the service's HTTP adapter expects one ({@code POST /sms}, a
 * bearer key, {@code Idempotency-Key} equal to the body's {@code messageId}), which deduplicates by
 * that key as a real provider does: the first call with a key delivers the message (answered 202),
 * a repeat is answered 409 and delivers nothing. Its {@link Mode} decides how it answers a call as
 * the call arrives:
 *
 * <ul>
 *   <li>{@link Mode#PROMPT}: at once;
 *   <li>{@link Mode#SLOW}: delivers at once, answers only {@link #SLOW_ANSWER} later (the adapter's
 *       call times out at about the same time, so it sends again, and the repeat is a 409);
 *   <li>{@link Mode#FAILING}: 503 at once, nothing delivered.
 * </ul>
 *
 * It counts deliveries by message id and by the booking its text names ("booking 42"), so a
 * message sent twice under two ids shows up too. Thread-safe: each call runs on a virtual thread.
 */
public final class SmsStub implements AutoCloseable {

    /** How late a slow provider answers. */
    public static final Duration SLOW_ANSWER = Duration.ofSeconds(5);
    private static final Pattern BOOKING = Pattern.compile("\\bbooking (\\d+)\\b");
    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Mode { PROMPT, SLOW, FAILING }

    /** A message id's first delivery: when ({@code clock} millis), and the booking its text names (null: none). */
    public record Delivery(String messageId, long deliveredAt, String bookingId) {
    }

    /** The calls answered so far, by kind. */
    public record Calls(long delivered, long repeats, long slow, long failed, long refused) {

        public long total() {
            return delivered + repeats + failed + refused;
        }

        public Calls minus(Calls earlier) {
            return new Calls(delivered - earlier.delivered, repeats - earlier.repeats, slow - earlier.slow,
                    failed - earlier.failed, refused - earlier.refused);
        }
    }

    private final String apiKey;
    private final LongSupplier clock;
    private final Duration slowAnswer;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Delivery> deliveries = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> byBooking = new ConcurrentHashMap<>();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder repeats = new LongAdder();
    private final LongAdder slow = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private volatile Mode mode = Mode.PROMPT;

    /** A stub answering slow calls after {@link #SLOW_ANSWER}, on the wall clock. */
    public SmsStub(String apiKey) throws IOException {
        this(apiKey, SLOW_ANSWER, System::currentTimeMillis);
    }

    SmsStub(String apiKey, Duration slowAnswer, LongSupplier clock) throws IOException {
        this.apiKey = apiKey;
        this.slowAnswer = slowAnswer;
        this.clock = clock;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/sms", this::call);
        server.start();
    }

    /** Where the service sends its messages ({@code boxoffice.sms.http.url}). */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sms");
    }

    /** From now on, calls are answered so; calls already waiting keep the answer they were given. */
    public void mode(Mode mode) {
        this.mode = mode;
    }

    public Calls calls() {
        return new Calls(delivered.sum(), repeats.sum(), slow.sum(), failed.sum(), refused.sum());
    }

    /** The first delivery of every message id so far. */
    public Collection<Delivery> deliveries() {
        return deliveries.values();
    }

    public Delivery delivery(String messageId) {
        return deliveries.get(messageId);
    }

    /** Bookings whose tickets were delivered more than once (under different message ids), with how often. */
    public Map<String, Integer> bookingsDeliveredTwice() {
        Map<String, Integer> twice = new java.util.TreeMap<>();
        byBooking.forEach((booking, n) -> {
            if (n.get() > 1) {
                twice.put(booking, n.get());
            }
        });
        return twice;
    }

    private void call(HttpExchange exchange) throws IOException {
        int status;
        Duration wait = Duration.ZERO;
        try (InputStream in = exchange.getRequestBody()) {
            JsonNode body = JSON.readTree(in.readAllBytes());
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            String id = body == null ? null : body.path("messageId").asText(null);
            Mode answer = mode;
            if (!("Bearer " + apiKey).equals(exchange.getRequestHeaders().getFirst("Authorization"))
                    || key == null || !key.equals(id) || body.path("to").asText("").isEmpty()) {
                refused.increment();
                status = 400;
            } else if (answer == Mode.FAILING) {
                failed.increment();
                status = 503;
            } else {
                status = deliver(key, body.path("text").asText("")) ? 202 : 409;
                if (answer == Mode.SLOW) {
                    slow.increment();
                    wait = slowAnswer;
                }
            }
        } catch (IOException | RuntimeException e) {
            refused.increment();
            status = 400;
        }
        try {
            Thread.sleep(wait);
            exchange.sendResponseHeaders(status, -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException gone) {
            // the caller timed out and hung up: the message was delivered all the same
        } finally {
            exchange.close();
        }
    }

    /** Whether this call delivered the message (false: a repeat of an id already delivered). */
    private boolean deliver(String messageId, String text) {
        Matcher m = BOOKING.matcher(text);
        String booking = m.find() ? m.group(1) : null;
        Delivery first = new Delivery(messageId, clock.getAsLong(), booking);
        if (deliveries.putIfAbsent(messageId, first) != null) {
            repeats.increment();
            return false;
        }
        delivered.increment();
        if (booking != null) {
            byBooking.computeIfAbsent(booking, b -> new AtomicInteger()).incrementAndGet();
        }
        return true;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
