package org.boxoffice.app;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.Metrics;
import io.helidon.metrics.api.Tag;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.notify.NotifySettings;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The outbox on a real PostgreSQL with an SMS provider that is down: a message goes on being tried
 * (at most 5 minutes apart) for as long as its channel retries, however many tries that takes, and
 * only a message written longer ago than that is given up; that is counted, and what waits is
 * measured.
 */
@ServerTest
class OutboxRetryTest {

    private static TestApp app;
    private final CheckoutFixture f;

    OutboxRetryTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) throws IOException {
        int closed;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort(); // nobody listens there once the probe is closed: every send fails
        }
        NotifySettings.SmsSettings down = NotifySettings.SmsSettings.simulator()
                .withHttp(URI.create("http://127.0.0.1:" + closed + "/sms"), "test-sms-key-0123456789", Duration.ofSeconds(1), 0);
        app = TestApp.serve(server, s -> s.withNotices(NotifySettings.defaults().withSms(down)));
    }

    private void execute(String sql) {
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** A meter's value in the service's registry, by name and channel; 0 if it is not there (yet). */
    private static double meter(String name, String channel) {
        for (Meter m : Metrics.globalRegistry().meters()) {
            boolean ofChannel = false;
            for (Tag t : m.id().tags()) {
                ofChannel |= t.key().equals("channel") && t.value().equals(channel);
            }
            if (m.id().name().equals(name) && ofChannel) {
                return m instanceof Counter c ? c.count() : m instanceof Gauge<?> g ? g.value().doubleValue() : 0;
            }
        }
        return 0;
    }

    @Test
    void aMessageIsStillTriedAfterTenFailedSends_andOneWrittenADayAgoIsGivenUp_andCounted() {
        double givenUpBefore = meter("boxoffice_messages_given_up", "sms");
        execute("""
                INSERT INTO messages (kind, channel, subject, show_id, account_id, recipient, due_at, attempts, created_at)
                VALUES ('HOLD_LAPSED', 'SMS', 'H-retry-1', 'fado-1', 'retry-fan', '+4915155500101', now(), 10,
                        now() - interval '1 hour'),
                       ('HOLD_LAPSED', 'SMS', 'H-retry-2', 'fado-1', 'retry-fan', '+4915155500102', now(), 3,
                        now() - interval '25 hours')""");

        assertTrue(waitFor(() -> f.count("SELECT count(*) FROM messages WHERE subject = 'H-retry-1' AND attempts = 11 "
                + "AND last_error IS NOT NULL", new Object[0]) == 1, Duration.ofSeconds(20)), "the eleventh send was tried");
        assertTrue(waitFor(() -> "true".equals(f.one("SELECT failed::text FROM messages WHERE subject = 'H-retry-2'")),
                Duration.ofSeconds(20)), "the message written 25 hours ago is given up");

        assertEquals("false", f.one("SELECT failed::text FROM messages WHERE subject = 'H-retry-1'"),
                "ten failed sends are no reason to give up within the day");
        assertEquals(1, f.count("SELECT count(*) FROM messages WHERE subject = 'H-retry-1' "
                + "AND due_at BETWEEN now() + interval '4 minutes' AND now() + interval '5 minutes 1 second'"),
                "retried again within 5 minutes, no later");
        assertEquals(givenUpBefore + 1, meter("boxoffice_messages_given_up", "sms"), "the give-up is counted");
        assertTrue(waitFor(() -> meter("boxoffice_messages_pending", "sms") == 1
                && meter("boxoffice_messages_oldest_pending_seconds", "sms") >= 3_600, Duration.ofSeconds(15)),
                "the message still tried is pending, written an hour ago: " + meter("boxoffice_messages_pending", "sms")
                        + " / " + meter("boxoffice_messages_oldest_pending_seconds", "sms"));
    }
}
