package org.boxoffice.app.mail;

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
import org.boxoffice.domain.MailOutbox;

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
 * Sends one kind of mail from its outbox over SMTP (Jakarta Mail), on its own thread, so a slow or
 * absent mail server never holds up what the mail tells of. Every {@code boxoffice.mail.millis} it
 * claims the mails that are due, has the kind's {@link MailComposer} write each one, sends it and
 * marks it sent. A failed send is retried with exponential backoff (2 s after the first failure,
 * then 4 s, 8 s ... at most 15 minutes) and given up after {@code boxoffice.mail.maxattempts}
 * sends. With no SMTP host configured the mails are logged instead of sent.
 *
 * <p>Every member runs one dispatcher per kind; the outbox leases each claimed mail to one of them.
 *
 * @param <M> the kind of mail
 */
public final class MailDispatcher<M extends MailOutbox.Mail> implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MailDispatcher.class.getName());
    private static final int BATCH = 20;
    private static final long MAX_BACKOFF_MILLIS = 15 * 60_000;

    private final MailOutbox<M> outbox;
    private final MailComposer<M> composer;
    private final MailSettings settings;
    private final LongSupplier clock;
    private final Session session;
    private final ScheduledExecutorService timer;

    public MailDispatcher(MailOutbox<M> outbox, MailComposer<M> composer, MailSettings settings,
                          LongSupplier clock) {
        this.outbox = outbox;
        this.composer = composer;
        this.settings = settings;
        this.clock = clock;
        this.session = settings.logOnly() ? null : Session.getInstance(smtpProperties(settings));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, composer.kind() + "-mailer");
            t.setDaemon(true);
            return t;
        });
    }

    private static Properties smtpProperties(MailSettings s) {
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
    public MailDispatcher<M> start() {
        long every = settings.every().toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                dispatchOnce();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, composer.kind() + " mail dispatch failed; trying again on the next tick", e);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Sends the mails that are due; returns how many were sent (or logged). */
    public int dispatchOnce() {
        // a mail is leased for longer than one SMTP conversation can take
        List<M> due = outbox.claim(BATCH, clock.getAsLong(), settings.timeout().toMillis() * 4 + 1_000);
        int sent = 0;
        for (M mail : due) {
            try {
                send(mail, composer.compose(mail));
                outbox.sent(mail.mailId(), clock.getAsLong());
                sent++;
            } catch (MessagingException | RuntimeException e) {
                boolean giveUp = mail.attempts() >= settings.maxAttempts();
                long backoff = Math.min(MAX_BACKOFF_MILLIS, 1_000L << Math.min(mail.attempts(), 20));
                outbox.failed(mail.mailId(), e.toString(), clock.getAsLong() + backoff, giveUp);
                LOG.log(giveUp ? Level.SEVERE : Level.WARNING, composer.kind() + " mail " + mail.mailId() + " for "
                        + composer.about(mail) + " not sent (attempt " + mail.attempts() + ")"
                        + (giveUp ? "; giving up" : "; retrying in " + backoff + " ms") + ": " + e);
            }
        }
        return sent;
    }

    private void send(M mail, MailContent content) throws MessagingException {
        if (session == null) {
            LOG.info(() -> composer.kind() + " mail (no SMTP configured) to " + mail.recipient() + ": "
                    + content.subject() + "\n" + content.text());
            return;
        }
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress(settings.from()));
        message.setRecipient(Message.RecipientType.TO, new InternetAddress(mail.recipient()));
        message.setSubject(content.subject(), "UTF-8");
        message.setSentDate(new Date(clock.getAsLong()));
        if (content.attachments().isEmpty()) {
            message.setText(content.text(), "UTF-8");
        } else {
            message.setContent(multipart(content));
        }
        if (settings.username().isBlank()) {
            Transport.send(message);
        } else {
            Transport.send(message, settings.username(), settings.password());
        }
    }

    private static MimeMultipart multipart(MailContent content) throws MessagingException {
        MimeMultipart parts = new MimeMultipart();
        MimeBodyPart body = new MimeBodyPart();
        body.setText(content.text(), "UTF-8");
        parts.addBodyPart(body);
        for (MailContent.Attachment a : content.attachments()) {
            MimeBodyPart file = new MimeBodyPart();
            file.setDataHandler(new DataHandler(new ByteArrayDataSource(a.content().get(), a.contentType())));
            file.setFileName(a.fileName());
            parts.addBodyPart(file);
        }
        return parts;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
