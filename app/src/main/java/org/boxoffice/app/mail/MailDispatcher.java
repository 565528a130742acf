package org.boxoffice.app.mail;

import org.boxoffice.domain.MailOutbox;

import java.util.ArrayList;
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
 * of. Every {@code boxoffice.mail.millis} it claims the mails that are due (in batches of 20, and
 * again at once while a batch comes back full), has the kind's {@link MailComposer} write each one,
 * delivers it, and marks the batch's sends in one statement. A failed send is retried with
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
    /** A backlog (a sale's lapsed holds, all told at once) is worked off this many batches per tick. */
    private static final int MAX_BATCHES_PER_TICK = 50;
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

    /**
     * Polls the outbox every {@code every}; after polls that found nothing the wait doubles, up to
     * {@value #IDLE_STRETCH} times {@code every}, and the first poll that finds mail brings it back:
     * a member without load runs one dispatcher per kind and channel, each asking PostgreSQL, and
     * those polls were a fifth of an idle member's CPU. A mail after a quiet spell waits at most
     * that much longer; a busy outbox is polled as often as before.
     */
    public MailDispatcher<M> start() {
        long every = settings.every().toMillis();
        timer.schedule(() -> tick(every, every), every, TimeUnit.MILLISECONDS);
        return this;
    }

    /** How many times {@code every} an idle dispatcher waits at most between polls. */
    public static final int IDLE_STRETCH = 4;

    private volatile int idleStretch = IDLE_STRETCH;

    /**
     * Polls every {@code every} even when idle: for a channel whose promptness is promised (the
     * fan's open page hears of a lapse within about a second and a half). Call before {@link #start}.
     */
    public MailDispatcher<M> pollingSteadily() {
        idleStretch = 1;
        return this;
    }

    private void tick(long every, long waited) {
        long next = every;
        try {
            if (dispatchOnce() == 0 && outboxWasEmpty) {
                next = Math.min(waited * 2, every * idleStretch);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, composer.kind() + " mail dispatch failed; trying again on the next tick", e);
        }
        long wait = next;
        try {
            timer.schedule(() -> tick(every, wait), wait, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // closed meanwhile
        }
    }

    /** Whether the last {@link #dispatchOnce} claimed nothing at all (a failed send still counts as work). */
    private volatile boolean outboxWasEmpty;

    /**
     * Sends the mails that are due, a batch at a time until none is left (at most
     * {@value #MAX_BATCHES_PER_TICK} batches, then the next tick goes on); returns how many were
     * sent (or logged).
     */
    public int dispatchOnce() {
        int sent = 0;
        int claimed = 0;
        for (int round = 0; round < MAX_BATCHES_PER_TICK; round++) {
            int[] batch = dispatchBatch();
            sent += batch[1];
            claimed += batch[0];
            outboxWasEmpty = claimed == 0;
            if (batch[0] < BATCH) {
                break;
            }
        }
        return sent;
    }

    /**
     * Claims a batch and sends it; the sends are marked in one statement at the end. A mail is
     * leased for longer than the whole batch can take, so no other member claims it meanwhile; a
     * dispatcher that dies between a send and the mark leaves the mail to be sent again (with the
     * same message id) once the lease ends. Returns the mails claimed and those sent.
     */
    private int[] dispatchBatch() {
        List<M> due = outbox.claim(BATCH, clock.getAsLong(), BATCH * channel.longestDelivery().toMillis() + 1_000);
        List<Long> sent = new ArrayList<>(due.size());
        try {
            for (M mail : due) {
                try {
                    channel.deliver(composer.kind() + "-" + mail.mailId(), mail.recipient(), composer.compose(mail));
                    sent.add(mail.mailId());
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
        } finally {
            outbox.sent(sent, clock.getAsLong());
        }
        return new int[] {due.size(), sent.size()};
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
