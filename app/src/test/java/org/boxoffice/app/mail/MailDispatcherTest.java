package org.boxoffice.app.mail;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;
import org.boxoffice.domain.MailOutbox;
import org.boxoffice.domain.MailOutbox.TicketMail;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dispatcher with an in-memory outbox, and for sends an in-process SMTP server on loopback. */
class MailDispatcherTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final MailSettings LOGGING = MailSettings.logging()
            .withTimeout(Duration.ofMillis(1_500), Duration.ofMillis(100), Duration.ofHours(24));

    /** Hands out the mails it was given, once each, and remembers what became of them. */
    private static final class InMemoryOutbox implements MailOutbox<TicketMail> {
        final List<TicketMail> due = new ArrayList<>();
        final List<Long> sent = new ArrayList<>();
        final List<String> failed = new ArrayList<>();
        /** How long ago each mail was written, by id; 0 if not given. */
        final java.util.Map<Long, Long> ageMillis = new java.util.HashMap<>();

        @Override
        public List<TicketMail> claim(int max, long now, long leaseMillis) {
            List<TicketMail> claimed = List.copyOf(due.subList(0, Math.min(max, due.size())));
            due.removeAll(claimed);
            return claimed;
        }

        final List<Integer> sentBatches = new ArrayList<>();

        @Override
        public void sent(long mailId, long now) {
            sent.add(mailId);
        }

        @Override
        public void sent(java.util.Collection<Long> mailIds, long now) {
            sentBatches.add(mailIds.size());
            sent.addAll(mailIds);
        }

        @Override
        public boolean failed(long mailId, String error, long retryAt, long retryForMillis) {
            boolean giveUp = ageMillis.getOrDefault(mailId, 0L) >= retryForMillis;
            failed.add(mailId + " retry +" + (retryAt - NOW) + (giveUp ? " gave up" : ""));
            return giveUp;
        }
    }

    private static MailComposer<TicketMail> composer(Function<TicketMail, MailContent> compose) {
        return new MailComposer<>() {
            @Override
            public String kind() {
                return "test";
            }

            @Override
            public String about(TicketMail mail) {
                return "booking " + mail.bookingId();
            }

            @Override
            public MailContent compose(TicketMail mail) {
                return compose.apply(mail);
            }
        };
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    @Test
    void aMailWithoutAttachments_goesOutAsOnePlainTextPart_andIsMarkedSent() throws Exception {
        int port = freePort();
        ServerSetup setup = new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP);
        setup.setServerStartupTimeout(30_000); // a busy shared machine can take longer than the 2 s default
        GreenMail smtp = new GreenMail(setup);
        smtp.start();
        InMemoryOutbox outbox = new InMemoryOutbox();
        outbox.due.add(new TicketMail(7, 42, "dora@fans.example", 1));
        try (MailDispatcher<TicketMail> dispatcher = new MailDispatcher<>(outbox,
                composer(m -> new MailContent("About " + m.bookingId(), "Hello.\n", List.of())),
                LOGGING.withServer("127.0.0.1", port), () -> NOW)) {

            assertEquals(1, dispatcher.dispatchOnce());

            MimeMessage mail = smtp.getReceivedMessages()[0];
            assertEquals("dora@fans.example", mail.getAllRecipients()[0].toString());
            assertEquals("tickets@boxoffice.example", mail.getFrom()[0].toString());
            assertEquals("About 42", mail.getSubject());
            assertEquals("Hello.", ((String) mail.getContent()).trim());
            assertEquals(List.of(7L), outbox.sent);
            assertEquals(List.of(), outbox.failed);
        } finally {
            smtp.stop();
        }
    }

    @Test
    void aFailedSend_isRetriedWithDoublingBackoffOfAtMostFiveMinutes_andGivenUpOnlyOnceItsRetryTimeIsOver() {
        InMemoryOutbox outbox = new InMemoryOutbox();
        for (int attempt : new int[] {1, 2, 3, 9, 11, 300}) {
            outbox.due.add(new TicketMail(attempt, 42, "eli@fans.example", attempt));
            outbox.ageMillis.put((long) attempt, Duration.ofHours(23).toMillis());
        }
        outbox.due.add(new TicketMail(1000, 42, "eli@fans.example", 12));
        outbox.ageMillis.put(1000L, Duration.ofHours(24).toMillis());
        java.util.concurrent.atomic.AtomicInteger givenUp = new java.util.concurrent.atomic.AtomicInteger();
        try (MailDispatcher<TicketMail> dispatcher = new MailDispatcher<>(outbox, composer(m -> {
            throw new NoSuchElementException("no booking " + m.bookingId());
        }), LOGGING, () -> NOW).onGiveUp(givenUp::incrementAndGet)) {

            assertEquals(0, dispatcher.dispatchOnce());

            assertEquals(List.of("1 retry +2000", "2 retry +4000", "3 retry +8000", "9 retry +300000",
                    "11 retry +300000", "300 retry +300000", "1000 retry +300000 gave up"), outbox.failed);
            assertEquals(List.of(), outbox.sent);
            assertEquals(1, givenUp.get(), "only the mail written 24 hours ago is given up, and counted");
        }
    }

    @Test
    void aChannelTurnedOff_givesEveryMailUpAtOnce_uncounted() {
        InMemoryOutbox outbox = new InMemoryOutbox();
        outbox.due.add(new TicketMail(5, 42, "gil@fans.example", 1));
        java.util.concurrent.atomic.AtomicInteger givenUp = new java.util.concurrent.atomic.AtomicInteger();
        try (MailDispatcher<TicketMail> dispatcher = new MailDispatcher<>(outbox,
                composer(m -> new MailContent("Tickets", "Seat A-1-1", List.of())), Channel.off("email is off"), LOGGING,
                () -> NOW).onGiveUp(givenUp::incrementAndGet)) {

            assertEquals(0, dispatcher.dispatchOnce());

            assertEquals(List.of("5 retry +0 gave up"), outbox.failed);
            assertEquals(0, givenUp.get(), "turning a channel off is the operator's choice, not an outage");
        }
    }

    @Test
    void withNoSmtpHost_aMailIsLoggedAndMarkedSent_withoutMakingItsAttachments() {
        InMemoryOutbox outbox = new InMemoryOutbox();
        outbox.due.add(new TicketMail(9, 42, "fay@fans.example", 1));
        MailContent withQr = new MailContent("Tickets", "Seat A-1-1", List.of(new MailContent.Attachment(
                "ticket-A-1-1.png", "image/png", () -> {
                    throw new AssertionError("made an attachment for a mail that is only logged");
                })));
        try (MailDispatcher<TicketMail> dispatcher = new MailDispatcher<>(outbox, composer(m -> withQr), LOGGING,
                () -> NOW)) {

            assertEquals(1, dispatcher.dispatchOnce());

            assertEquals(List.of(9L), outbox.sent);
            assertTrue(outbox.failed.isEmpty(), outbox.failed.toString());
        }
    }

    @Test
    void aBacklog_isWorkedOffInOneTick_aBatchAtATime_eachBatchMarkedSentInOneCall() {
        InMemoryOutbox outbox = new InMemoryOutbox();
        for (int i = 1; i <= 45; i++) {
            outbox.due.add(new TicketMail(i, 100 + i, "fan" + i + "@fans.example", 1));
        }
        try (MailDispatcher<TicketMail> dispatcher = new MailDispatcher<>(outbox,
                composer(m -> new MailContent("Tickets", "Seat A-1-1", List.of())), LOGGING, () -> NOW)) {

            assertEquals(45, dispatcher.dispatchOnce());

            assertEquals(45, outbox.sent.size());
            assertEquals(List.of(20, 20, 5), outbox.sentBatches, "one mark per batch, not one per mail");
            assertTrue(outbox.due.isEmpty());
        }
    }

    /** An outbox shared with the dispatcher's thread: counts its polls. */
    private static final class PolledOutbox implements MailOutbox<TicketMail> {
        final List<TicketMail> due = new ArrayList<>();
        final List<Long> sent = new ArrayList<>();
        int polls;

        @Override
        public synchronized List<TicketMail> claim(int max, long now, long leaseMillis) {
            polls++;
            List<TicketMail> claimed = List.copyOf(due.subList(0, Math.min(max, due.size())));
            due.removeAll(claimed);
            return claimed;
        }

        @Override
        public synchronized void sent(long mailId, long now) {
            sent.add(mailId);
        }

        @Override
        public synchronized void sent(java.util.Collection<Long> mailIds, long now) {
            sent.addAll(mailIds);
        }

        @Override
        public boolean failed(long mailId, String error, long retryAt, long retryForMillis) {
            return false;
        }

        synchronized int polls() {
            return polls;
        }

        synchronized List<Long> sent() {
            return List.copyOf(sent);
        }

        synchronized void add(TicketMail mail) {
            due.add(mail);
        }
    }

    private static final MailSettings EVERY_50_MS = MailSettings.logging()
            .withTimeout(Duration.ofMillis(1_500), Duration.ofMillis(50), Duration.ofHours(24));

    @Test
    void anIdleOutbox_isPolledLessOften_andAMailStillGoesOutWithinFourPeriods() throws Exception {
        PolledOutbox outbox = new PolledOutbox();
        try (MailDispatcher<TicketMail> dispatcher = new MailDispatcher<>(outbox,
                composer(m -> new MailContent("Tickets", "Seat A-1-1", List.of())), EVERY_50_MS, () -> NOW).start()) {
            Thread.sleep(1_500);
            int idlePolls = outbox.polls();
            // every 50 ms would be 30 polls; stretched to at most 200 ms, about 9
            assertTrue(idlePolls <= 15, "an idle outbox polled " + idlePolls + " times in 1.5 s");

            outbox.add(new TicketMail(11, 42, "gil@fans.example", 1));
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (outbox.sent().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(List.of(11L), outbox.sent(), "sent within the stretched period");
        }
    }

    @Test
    void aDispatcherPollingSteadily_keepsItsPeriodWhenIdle() throws Exception {
        PolledOutbox outbox = new PolledOutbox();
        try (MailDispatcher<TicketMail> dispatcher = new MailDispatcher<>(outbox,
                composer(m -> new MailContent("Tickets", "Seat A-1-1", List.of())), EVERY_50_MS, () -> NOW)
                .pollingSteadily().start()) {
            Thread.sleep(1_500);
            int polls = outbox.polls();
            assertTrue(polls >= 15, "polled " + polls + " times in 1.5 s at a 50 ms period");
        }
    }
}
