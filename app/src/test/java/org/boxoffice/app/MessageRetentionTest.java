package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.notify.NotifySettings;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The messages outbox does not grow for ever: a running member deletes, periodically, the messages
 * sent longer ago than the configured number of days, and keeps the rest (recent, unsent, given up).
 */
@ServerTest
class MessageRetentionTest {

    private static TestApp app;
    private final CheckoutFixture f;

    MessageRetentionTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withNotices(NotifySettings.defaults().withRetention(Duration.ofDays(7),
                Duration.ofMillis(200))));
    }

    private void message(String subject, String sentDaysAgo, boolean failed) {
        try (var c = app.dataSource.getConnection(); var ps = c.prepareStatement("""
                INSERT INTO messages (kind, channel, subject, show_id, account_id, due_at, sent_at, failed)
                VALUES ('HOLD_LAPSED', 'PAGE', ?, 'mr-app', 'fan', now() - interval '30 days',
                        now() - (?::int * interval '1 day'), ?)""")) {
            ps.setString(1, subject);
            if (sentDaysAgo == null) {
                ps.setNull(2, java.sql.Types.INTEGER);
            } else {
                ps.setInt(2, Integer.parseInt(sentDaysAgo));
            }
            ps.setBoolean(3, failed);
            ps.executeUpdate();
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void sentMessagesOlderThanTheRetention_areDeletedPeriodically_andNothingElse() {
        message("sent-long-ago", "8", false);
        message("sent-very-long-ago", "400", false);
        message("sent-yesterday", "1", false);
        message("not-sent-yet", null, false);
        message("given-up", null, true);

        assertTrue(CheckoutFixture.waitFor(() -> f.count("SELECT count(*) FROM messages WHERE subject LIKE 'sent-%long%'") == 0,
                Duration.ofSeconds(10)), "the periodic delete ran");
        assertEquals(List.of("given-up", "not-sent-yet", "sent-yesterday"),
                f.query("SELECT subject FROM messages WHERE show_id = 'mr-app' ORDER BY subject"));
    }

    @Test
    void aRetentionShorterThanADay_isRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> NotifySettings.defaults().withRetention(Duration.ofHours(23), Duration.ofMinutes(1)));
        assertThrows(IllegalArgumentException.class,
                () -> NotifySettings.defaults().withRetention(Duration.ofDays(1), Duration.ZERO));
    }
}
