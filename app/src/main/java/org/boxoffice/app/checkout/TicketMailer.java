package org.boxoffice.app.checkout;

import jakarta.activation.DataHandler;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.util.ByteArrayDataSource;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.TicketOutbox;

import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends ticket mails from the outbox: a plain-text mail listing the tickets, with one QR image per
 * seat attached. Runs on its own thread, so a slow or absent mail server never holds up a booking;
 * a failed send is retried with exponential backoff (up to {@code maxAttempts}). With no SMTP host
 * configured the mail is logged instead of sent.
 *
 * <p>Who receives it: the address taken at checkout (the token's {@code email} claim, or the
 * configured pattern; see {@link Recipients}).
 */
public final class TicketMailer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TicketMailer.class.getName());
    private static final int BATCH = 20;
    private static final long MAX_BACKOFF_MILLIS = 15 * 60_000;

    private final TicketOutbox outbox;
    private final BookingRepository bookings;
    private final ShowDirectory shows;
    private final TicketCodes codes;
    private final CheckoutSettings.MailSettings settings;
    private final LongSupplier clock;
    private final Session session;
    private final ScheduledExecutorService timer;

    public TicketMailer(TicketOutbox outbox, BookingRepository bookings, ShowDirectory shows, TicketCodes codes,
                        CheckoutSettings.MailSettings settings, LongSupplier clock) {
        this.outbox = outbox;
        this.bookings = bookings;
        this.shows = shows;
        this.codes = codes;
        this.settings = settings;
        this.clock = clock;
        this.session = settings.logOnly() ? null : Session.getInstance(smtpProperties(settings));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ticket-mailer");
            t.setDaemon(true);
            return t;
        });
    }

    private static Properties smtpProperties(CheckoutSettings.MailSettings s) {
        Properties p = new Properties();
        String timeout = Long.toString(s.timeout().toMillis());
        p.put("mail.transport.protocol", "smtp");
        p.put("mail.smtp.host", s.host());
        p.put("mail.smtp.port", Integer.toString(s.port()));
        p.put("mail.smtp.connectiontimeout", timeout);
        p.put("mail.smtp.timeout", timeout);
        p.put("mail.smtp.writetimeout", timeout);
        p.put("mail.smtp.auth", Boolean.toString(!s.username().isBlank()));
        p.put("mail.smtp.starttls.enable", Boolean.toString(s.startTls()));
        return p;
    }

    /** Polls the outbox every {@code every}. */
    public TicketMailer start() {
        long every = settings.every().toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                dispatchOnce();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "ticket mail dispatch failed; trying again on the next tick", e);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Sends the mails that are due; returns how many were sent (or logged). */
    public int dispatchOnce() {
        long now = clock.getAsLong();
        // a mail is leased for longer than one SMTP conversation can take
        List<TicketOutbox.TicketMail> due = outbox.claim(BATCH, now, settings.timeout().toMillis() * 4 + 1_000);
        int sent = 0;
        for (TicketOutbox.TicketMail mail : due) {
            try {
                send(mail);
                outbox.sent(mail.mailId(), clock.getAsLong());
                sent++;
            } catch (MessagingException | RuntimeException e) {
                boolean giveUp = mail.attempts() >= settings.maxAttempts();
                long backoff = Math.min(MAX_BACKOFF_MILLIS, 1_000L << Math.min(mail.attempts(), 20));
                outbox.failed(mail.mailId(), e.toString(), clock.getAsLong() + backoff, giveUp);
                LOG.log(giveUp ? Level.SEVERE : Level.WARNING, "ticket mail " + mail.mailId() + " for booking "
                        + mail.bookingId() + " not sent (attempt " + mail.attempts() + ")"
                        + (giveUp ? "; giving up" : "; retrying in " + backoff + " ms") + ": " + e);
            }
        }
        return sent;
    }

    private void send(TicketOutbox.TicketMail mail) throws MessagingException {
        Booking b = bookings.booking(mail.bookingId()).orElseThrow();
        Show show = shows.find(b.showId()).orElseThrow();
        String title = shows.event(show.eventId()).map(Event::title).orElse(show.eventId());
        String subject = "Your tickets for " + title + " (booking " + b.bookingId() + ")";
        StringBuilder text = new StringBuilder()
                .append("Thank you for your booking.\n\n")
                .append(title).append(", ").append(Instant.ofEpochMilli(show.startsAt())).append('\n')
                .append("Booking ").append(b.bookingId()).append(", ").append(b.seatIds().size()).append(" seat(s)\n\n");
        for (String seat : b.seatIds()) {
            text.append("Seat ").append(seat).append("  ticket ").append(codes.code(b.bookingId(), b.showId(), seat))
                    .append('\n');
        }
        text.append("\nShow the QR code of each seat at the gate (attached).\n");
        if (session == null) {
            LOG.info(() -> "ticket mail (no SMTP configured) to " + mail.recipient() + ": " + subject + "\n" + text);
            return;
        }
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress(settings.from()));
        message.setRecipient(Message.RecipientType.TO, new InternetAddress(mail.recipient()));
        message.setSubject(subject, "UTF-8");
        message.setSentDate(new Date(clock.getAsLong()));
        MimeMultipart parts = new MimeMultipart();
        MimeBodyPart body = new MimeBodyPart();
        body.setText(text.toString(), "UTF-8");
        parts.addBodyPart(body);
        for (String seat : b.seatIds()) {
            MimeBodyPart qr = new MimeBodyPart();
            qr.setDataHandler(new DataHandler(new ByteArrayDataSource(
                    QrCodes.png(codes.code(b.bookingId(), b.showId(), seat)), "image/png")));
            qr.setFileName("ticket-" + seat + ".png");
            parts.addBodyPart(qr);
        }
        message.setContent(parts);
        if (settings.username().isBlank()) {
            Transport.send(message);
        } else {
            Transport.send(message, settings.username(), settings.password());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
