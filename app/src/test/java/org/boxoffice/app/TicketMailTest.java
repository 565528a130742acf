package org.boxoffice.app;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.mail.MailSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ticket mail from the outbox to an in-process SMTP server on loopback: sent, retried, never in the way. */
@ServerTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TicketMailTest {

    private static final String SHOW = "fado-1";
    private static int port;
    private static GreenMail smtp;
    private static TestApp app;
    private final CheckoutFixture f;

    /** A send to a silent server fails after this; a checkout that waited for the mail would take at least this long. */
    private static final Duration MAIL_TIMEOUT = Duration.ofSeconds(5);

    TicketMailTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        smtp = startSmtp();
        MailSettings mail = MailSettings.logging().withServer("127.0.0.1", port)
                .withTimeout(MAIL_TIMEOUT, Duration.ofMillis(100), Duration.ofHours(24));
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutSettings.defaults().withMail(mail)));
    }

    private static GreenMail startSmtp() {
        ServerSetup setup = new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP);
        setup.setServerStartupTimeout(30_000); // a busy shared machine can take longer than the 2 s default
        // the port was the silent server's a moment ago: binding it again can fail until the kernel lets it go
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            GreenMail g = new GreenMail(setup);
            try {
                g.start();
                return g;
            } catch (IllegalStateException e) {
                g.stop();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        smtp.stop();
    }

    private long book(String token, String seat) {
        TestApp.Http.Reply r = f.checkout(token, f.hold(token, "fado-1", seat), "card_ok");
        assertEquals(200, r.status(), r.body());
        return json(r).get("bookingId").asLong();
    }

    private List<MimeMessage> mailsFor(long bookingId) {
        List<MimeMessage> out = new ArrayList<>();
        for (MimeMessage m : smtp.getReceivedMessages()) {
            try {
                if (m.getSubject().contains("booking " + bookingId + ")")) {
                    out.add(m);
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        return out;
    }

    @Test
    @Order(0)
    void aShowThatAdmitsLiveCodesOnly_mailsALinkToTheFansTickets_andNoCodeOrQrImage() throws Exception {
        f.createShow("mail-live", 300, 2);
        assertEquals(200, f.http.put("/v1/admin/shows/mail-live/ticket-policy", app.token("ops-m", "admin"),
                "{\"printAtHome\":false}").status());
        String cleo = app.token("cleo-m");
        long bookingId = f.book(cleo, "mail-live", "A-1-1", "A-1-2");

        assertTrue(waitFor(() -> mailsFor(bookingId).size() == 1, Duration.ofSeconds(10)), "the mail arrives");

        Object content = mailsFor(bookingId).get(0).getContent();
        assertTrue(content instanceof String, "one plain-text part, no QR image: " + content);
        String text = (String) content;
        assertTrue(text.contains("http://localhost:8080/#/booking/" + bookingId), text);
        assertTrue(text.contains("live ticket code") && text.contains("Seat A-1-1") && text.contains("Seat A-1-2"), text);
        assertFalse(text.contains("BX1.") || text.contains("QR code"), "a printed code the gate would refuse: " + text);
        String printed = json(f.http.get("/v1/bookings/" + bookingId, cleo)).get("tickets").get(0).get("code").asText();
        assertFalse(text.contains(printed));
    }

    @Test
    @Order(1)
    void aBooking_mailsItsTickets_withOneQrImagePerSeat_toThePatternAddress() throws Exception {
        String amy = app.token("amy-m");
        TestApp.Http.Reply r = f.checkout(amy, f.hold(amy, SHOW, "PLATEIA-20-1", "PLATEIA-20-2"), "card_ok");
        long bookingId = json(r).get("bookingId").asLong();

        assertTrue(waitFor(() -> mailsFor(bookingId).size() == 1, Duration.ofSeconds(10)), "the mail arrives");

        MimeMessage mail = mailsFor(bookingId).get(0);
        assertEquals("amy-m@example.test", mail.getAllRecipients()[0].toString());
        MimeMultipart parts = (MimeMultipart) mail.getContent();
        assertEquals(3, parts.getCount(), "the text and two QR images");
        String code = json(f.http.get("/v1/bookings/" + bookingId, amy)).get("tickets").get(0).get("code").asText();
        assertTrue(((String) parts.getBodyPart(0).getContent()).contains(code));
        assertEquals("image/png", parts.getBodyPart(1).getContentType().split(";")[0].trim().toLowerCase());
        assertTrue(waitFor(() -> f.one("select sent_at from ticket_mail where booking_id = ?", bookingId) != null,
                Duration.ofSeconds(5)));
    }

    @Test
    @Order(2)
    void theTokensEmailClaim_isTheRecipient() throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), new JWTClaimsSet.Builder().subject("ben-m")
                .expirationTime(new Date(System.currentTimeMillis() + 3_600_000)).claim("roles", List.of())
                .claim("email", "ben@fans.example").build());
        jwt.sign(new MACSigner(TestApp.SECRET.getBytes(StandardCharsets.UTF_8)));

        long bookingId = book(jwt.serialize(), "PLATEIA-20-5");

        assertTrue(waitFor(() -> mailsFor(bookingId).size() == 1, Duration.ofSeconds(10)));
        assertEquals("ben@fans.example", mailsFor(bookingId).get(0).getAllRecipients()[0].toString());
    }

    /** A mail server that accepts connections and never says a word. */
    private static final class SilentServer implements AutoCloseable {
        final ServerSocket socket;
        final List<Socket> held = new ArrayList<>();
        final Thread acceptor;

        SilentServer(int port) throws IOException {
            socket = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        held.add(socket.accept());
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    @Order(3)
    void aSilentOrAbsentMailServer_neverHoldsUpABooking_andTheMailIsSentOnceItIsBack() throws Exception {
        smtp.stop();
        long bookingId;
        try (SilentServer silent = new SilentServer(port)) {
            long started = System.nanoTime();
            bookingId = book(app.token("cat-m"), "PLATEIA-20-9");
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMillis < MAIL_TIMEOUT.toMillis(), "hold and checkout took " + tookMillis
                    + " ms: as long as a send to the silent server, so the booking waited for the mail");
            assertTrue(waitFor(() -> f.one("select last_error from ticket_mail where booking_id = ?", bookingId) != null,
                    MAIL_TIMEOUT.multipliedBy(4)), "the silent server made a send fail");
        }
        assertTrue(f.count("select attempts from ticket_mail where booking_id = ?", bookingId) >= 1);
        assertEquals(null, f.one("select sent_at from ticket_mail where booking_id = ?", bookingId));

        smtp = startSmtp();

        assertTrue(waitFor(() -> mailsFor(bookingId).size() == 1, Duration.ofSeconds(30)), "retried and delivered");
        assertEquals(Set.of("cat-m@example.test"), Set.of(mailsFor(bookingId).get(0).getAllRecipients()[0].toString()));
    }
}
