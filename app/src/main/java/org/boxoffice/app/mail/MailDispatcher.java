package org.boxoffice.app.mail;

import org.boxoffice.domain.MailOutbox;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends one kind of mail from its outbox through a {@link Channel} (SMTP unless told otherwise), on
 * its own thread, so a slow or absent mail server or SMS provider never holds up what the mail tells
 * of. Every {@code boxoffice.mail.millis} it claims the mails that are due, has the kind's
 * {@link MailComposer} write each one, delivers it and marks it sent. A failed send is retried with
 * exponential backoff (2 s after the first failure, then 4 s, 8 s ... at most 15 minutes) and given
 * up after {@code boxoffice.mail.maxattempts} sends. Every try of one mail carries the same message
 * id ({@code <kind>-<mailId>}), so a channel that deduplicates delivers it once.
 *
 * <p>Every member runs one dispatcher per kind and channel; the outbox leases each claimed mail to
 * one of them.
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
    private final Channel channel;
    private final LongSupplier clock;
    private final ScheduledExecutorService timer;

    /** Mails over SMTP ({@link SmtpChannel}). */
    public MailDispatcher(MailOutbox<M> outbox, MailComposer<M> composer, MailSettings settings,
                          LongSupplier clock) {
        this(outbox, composer, new SmtpChannel(settings, clock), settings, clock);
    }

    /** Through {@code channel}; {@code settings} give the polling period and the sends before giving up. */
    public MailDispatcher(MailOutbox<M> outbox, MailComposer<M> composer, Channel channel, MailSettings settings,
                          LongSupplier clock) {
        this.outbox = outbox;
        this.composer = composer;
        this.settings = settings;
        this.channel = channel;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, composer.kind() + "-mailer");
            t.setDaemon(true);
            return t;
        });
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
        // a mail is leased for longer than one delivery can take, so no other member sends it meanwhile
        List<M> due = outbox.claim(BATCH, clock.getAsLong(), channel.longestDelivery().toMillis() + 1_000);
        int sent = 0;
        for (M mail : due) {
            try {
                channel.deliver(composer.kind() + "-" + mail.mailId(), mail.recipient(), composer.compose(mail));
                outbox.sent(mail.mailId(), clock.getAsLong());
                sent++;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                boolean giveUp = mail.attempts() >= settings.maxAttempts();
                long backoff = Math.min(MAX_BACKOFF_MILLIS, 1_000L << Math.min(mail.attempts(), 20));
                outbox.failed(mail.mailId(), e.toString(), clock.getAsLong() + backoff, giveUp);
                LOG.log(giveUp ? Level.SEVERE : Level.WARNING, composer.kind() + " mail " + mail.mailId() + " to "
                        + channel.shown(mail.recipient()) + " for " + composer.about(mail) + " not sent (attempt "
                        + mail.attempts() + ")" + (giveUp ? "; giving up" : "; retrying in " + backoff + " ms") + ": " + e);
            }
        }
        return sent;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
