package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the demo's channels log while they deliver (the simulated SMS provider, mail with no SMTP
 * host): that a message went, its id, masked recipient and subject, and never a ticket code, a whole
 * phone number or a whole email address. Every log record of the service is captured, at every level.
 */
@ServerTest
class MessageLogTest {

    private static final Logger SERVICE = Logger.getLogger("org.boxoffice");
    private static final Logger ROOT = Logger.getLogger("");
    private static final List<LogRecord> RECORDS = Collections.synchronizedList(new ArrayList<>());
    private static final Handler CAPTURE = new Handler() {
        @Override
        public void publish(LogRecord r) {
            RECORDS.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private static Level serviceLevel;
    private static TestApp app;
    private final CheckoutFixture f;

    MessageLogTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        serviceLevel = SERVICE.getLevel();
        SERVICE.setLevel(Level.ALL);
        CAPTURE.setLevel(Level.ALL);
        ROOT.addHandler(CAPTURE);
        app = TestApp.serve(server); // demo mode: SMS simulated, mail logged
    }

    @AfterAll
    static void stop() {
        ROOT.removeHandler(CAPTURE);
        SERVICE.setLevel(serviceLevel);
    }

    @Test
    void deliveredTicketsAndNotices_logNoTicketCode_noWholePhoneNumber_andNoWholeAddress() {
        String phone = "+4915155512345";
        String fan = app.token("log-fan");
        assertEquals(200, f.http.put("/v1/accounts/me/phone", fan, "{\"phone\":\"" + phone + "\"}").status());
        f.createShow("log-1", 300, 2);
        f.createShow("log-2", 5, 2);
        long booking = f.book(fan, "log-1", "A-1-1", "A-1-2");
        List<String> codes = new ArrayList<>();
        json(f.http.get("/v1/bookings/" + booking, fan)).get("tickets").forEach(t -> codes.add(t.get("code").asText()));
        String lapsing = app.token("lapse-fan");
        String holdId = f.hold(lapsing, "log-2", "A-1-1");

        assertTrue(waitFor(() -> f.one("SELECT sent_at FROM ticket_mail WHERE booking_id = ?", booking) != null,
                Duration.ofSeconds(20)), "the ticket mail went");
        assertTrue(waitFor(() -> f.one("SELECT sent_at FROM messages WHERE kind = 'TICKETS' AND channel = 'SMS' "
                + "AND subject = ?", String.valueOf(booking)) != null, Duration.ofSeconds(20)), "the tickets' SMS went");
        assertTrue(waitFor(() -> f.one("SELECT sent_at FROM messages WHERE kind = 'HOLD_LAPSED' AND channel = 'EMAIL' "
                + "AND subject = ?", holdId) != null, Duration.ofSeconds(30)), "the lapse notice's mail went");

        List<String> logged;
        synchronized (RECORDS) {
            SimpleFormatter formatter = new SimpleFormatter();
            logged = RECORDS.stream().map(formatter::format).toList();
        }
        assertTrue(logged.stream().anyMatch(l -> l.contains("SMS (simulated)") && l.contains("+49*********45")),
                "the simulated SMS says it went, to the masked number");
        assertTrue(logged.stream().anyMatch(l -> l.contains("mail (not sent: no SMTP host)") && l.contains("l***@e***.test")
                && l.contains("Your tickets for")), "the logged mail names its masked recipient and subject");
        List<String> secrets = new ArrayList<>(codes);
        secrets.addAll(List.of("BX1.", phone, phone.substring(1), "log-fan@example.test", "lapse-fan@example.test"));
        for (String line : logged) {
            for (String secret : secrets) {
                assertTrue(!line.contains(secret), "the log shows '" + secret + "': " + line);
            }
        }
    }
}
