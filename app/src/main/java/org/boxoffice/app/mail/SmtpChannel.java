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

import java.time.Duration;
import java.util.Date;
import java.util.Properties;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * Email over SMTP (Jakarta Mail), with {@code boxoffice.mail.*}; with no SMTP host configured (demo
 * mode only) the mails are logged instead of sent: their message id, masked recipient and subject,
 * never their text, which holds ticket codes.
 */
public final class SmtpChannel implements Channel {

    private static final Logger LOG = Logger.getLogger(SmtpChannel.class.getName());

    private final MailSettings settings;
    private final LongSupplier clock;
    private final Session session;

    /** Email as {@code settings} say: over SMTP, logged (no host, demo mode), or not at all (mail off). */
    public static Channel of(MailSettings settings, LongSupplier clock) {
        return settings.enabled() ? new SmtpChannel(settings, clock)
                : Channel.off("email is off (boxoffice.mail.enabled=false)");
    }

    public SmtpChannel(MailSettings settings, LongSupplier clock) {
        this.settings = settings;
        this.clock = clock;
        this.session = settings.logOnly() ? null : Session.getInstance(smtpProperties(settings));
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

    @Override
    public void deliver(String messageId, String recipient, MailContent content) throws MessagingException {
        if (session == null) {
            // the demo's stand-in for SMTP: what was "sent", never to whom in full nor what it said
            // (a ticket mail's text holds the codes that admit its fan)
            LOG.info(() -> "mail (not sent: no SMTP host) " + messageId + " to " + Recipients.mask(recipient) + ": "
                    + content.subject());
            return;
        }
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress(settings.from()));
        message.setRecipient(Message.RecipientType.TO, new InternetAddress(recipient));
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

    /** One SMTP conversation: connect, then each step within the timeout. */
    @Override
    public Duration longestDelivery() {
        return settings.timeout().multipliedBy(4);
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
}
