package org.boxoffice.app.waitlist;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.OfferOutbox;
import org.boxoffice.domain.Show;

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
 * Tells a waiter that seats are held for them: sends the offer mails of the outbox, on its own
 * thread, with the ticket mail's server settings ({@code boxoffice.mail.*}), retries and backoff.
 * With no SMTP host configured the mail is logged instead. Only the waiter offered seats gets a
 * mail; nobody else in line is woken.
 */
public final class OfferMailer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(OfferMailer.class.getName());
    private static final int BATCH = 20;
    private static final long MAX_BACKOFF_MILLIS = 15 * 60_000;

    private final OfferOutbox outbox;
    private final ShowDirectory shows;
    private final CheckoutSettings.MailSettings settings;
    private final LongSupplier clock;
    private final Session session;
    private final ScheduledExecutorService timer;

    public OfferMailer(OfferOutbox outbox, ShowDirectory shows, CheckoutSettings.MailSettings settings, LongSupplier clock) {
        this.outbox = outbox;
        this.shows = shows;
        this.settings = settings;
        this.clock = clock;
        this.session = settings.logOnly() ? null : Session.getInstance(smtp(settings));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "offer-mailer");
            t.setDaemon(true);
            return t;
        });
    }

    private static Properties smtp(CheckoutSettings.MailSettings s) {
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

    /** Polls the outbox every {@code boxoffice.mail.millis}. */
    public OfferMailer start() {
        long every = settings.every().toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                dispatchOnce();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "offer mail dispatch failed; trying again on the next tick", e);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Sends the mails that are due; returns how many were sent (or logged). */
    public int dispatchOnce() {
        List<OfferOutbox.OfferMail> due = outbox.claim(BATCH, clock.getAsLong(), settings.timeout().toMillis() * 4 + 1_000);
        int sent = 0;
        for (OfferOutbox.OfferMail mail : due) {
            try {
                send(mail);
                outbox.sent(mail.mailId(), clock.getAsLong());
                sent++;
            } catch (MessagingException | RuntimeException e) {
                boolean giveUp = mail.attempts() >= settings.maxAttempts();
                long backoff = Math.min(MAX_BACKOFF_MILLIS, 1_000L << Math.min(mail.attempts(), 20));
                outbox.failed(mail.mailId(), e.toString(), clock.getAsLong() + backoff, giveUp);
                LOG.log(giveUp ? Level.SEVERE : Level.WARNING, "offer mail " + mail.mailId() + " for hold "
                        + mail.holdId() + " not sent (attempt " + mail.attempts() + ")"
                        + (giveUp ? "; giving up" : "; retrying in " + backoff + " ms") + ": " + e);
            }
        }
        return sent;
    }

    private void send(OfferOutbox.OfferMail mail) throws MessagingException {
        Show show = shows.find(mail.showId()).orElseThrow();
        String title = shows.event(show.eventId()).map(Event::title).orElse(show.eventId());
        String subject = "Seats are held for you: " + title;
        String text = "Seats came back for " + title + ", " + Instant.ofEpochMilli(show.startsAt())
                + ", and you were next on the waitlist.\n\n"
                + "Held for you until " + Instant.ofEpochMilli(mail.expiresAt()) + ": " + String.join(", ", mail.seatIds())
                + "\n\nBuy them:      POST /v1/holds/" + mail.holdId() + "/checkout"
                + "\nDecline them:  DELETE /v1/holds/" + mail.holdId()
                + "\n\nIf you do neither, they go to the next person waiting when the time is up.\n";
        if (session == null) {
            LOG.info(() -> "offer mail (no SMTP configured) to " + mail.recipient() + ": " + subject + "\n" + text);
            return;
        }
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress(settings.from()));
        message.setRecipient(Message.RecipientType.TO, new InternetAddress(mail.recipient()));
        message.setSubject(subject, "UTF-8");
        message.setSentDate(new Date(clock.getAsLong()));
        message.setText(text, "UTF-8");
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
