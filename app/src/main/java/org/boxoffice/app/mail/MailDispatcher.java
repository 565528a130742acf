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
 * exponential backoff (2 s after the first failure, then 4 s, 8 s ... at most {@link #MAX_BACKOFF}
 * apart) for as long as {@link MailSettings#retryFor} from when the mail was written (24 hours
 * unless configured otherwise: longer than a provider's outage lasts), and only then given up, which
 * the give-up listener hears of ({@link #onGiveUp}; the metrics count it). A channel that is off
 * gives each mail up at once, and that is not counted, unless {@link #whenOff} hands it to another
 * channel. Every try of one mail carries the same message
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
    /** The longest wait between two tries of one mail: a channel back from an outage is used within it. */
    public static final java.time.Duration MAX_BACKOFF = java.time.Duration.ofMinutes(5);

    private final MailOutbox<M> outbox;
    private final MailComposer<M> composer;
    private final MailSettings settings;
    private final Channel channel;
    private final LongSupplier clock;
    private final ScheduledExecutorService timer;

    /** Mails over SMTP ({@link SmtpChannel}). */
    public MailDispatcher(MailOutbox<M> outbox, MailComposer<M> composer, MailSettings settings,
                          LongSupplier clock) {
        this(outbox, composer, SmtpChannel.of(settings, clock), settings, clock);
    }

    /** Through {@code channel}; {@code settings} give the polling period and how long a mail is retried. */
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

    private volatile Runnable onGiveUp = () -> { };
    private volatile java.util.function.Predicate<M> whenOff = mail -> false;

    /**
     * While the channel is off, offers each mail to {@code handOver} first (on the dispatcher's
     * thread): it answers true when it gave the mail to another channel, which then tells it, and
     * false to have the mail given up as before. Call before {@link #start}.
     */
    public MailDispatcher<M> whenOff(java.util.function.Predicate<M> handOver) {
        whenOff = handOver;
        return this;
    }

    /** Calls {@code listener} (on the dispatcher's thread) for each mail given up after its retries. */
    public MailDispatcher<M> onGiveUp(Runnable listener) {
        onGiveUp = listener;
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
                    long now = clock.getAsLong();
                    if (e instanceof Channel.Off off) {
                        if (whenOff.test(mail)) {
                            LOG.fine(() -> composer.kind() + " mail " + mail.mailId() + " handed to another channel: " + off.getMessage());
                            continue;
                        }
                        outbox.failed(mail.mailId(), "not sent: " + off.getMessage(), now, 0);
                        LOG.fine(() -> composer.kind() + " mail " + mail.mailId() + " not sent: " + off.getMessage());
                        continue;
                    }
                    long backoff = backoffMillis(mail.attempts());
                    boolean gaveUp = outbox.failed(mail.mailId(), e.toString(), now + backoff, settings.retryFor().toMillis());
                    if (gaveUp) {
                        onGiveUp.run();
                    }
                    LOG.log(gaveUp ? Level.SEVERE : Level.WARNING, composer.kind() + " mail " + mail.mailId() + " to "
                            + channel.shown(mail.recipient()) + " for " + composer.about(mail) + " not sent (attempt "
                            + mail.attempts() + ")" + (gaveUp ? "; giving up: it was written more than "
                            + settings.retryFor().toMinutes() + " minutes ago" : "; retrying in " + backoff + " ms") + ": " + e);
                }
            }
        } finally {
            outbox.sent(sent, clock.getAsLong());
        }
        return new int[] {due.size(), sent.size()};
    }

    /** The wait after the {@code attempts}-th failed send: 2 s, 4 s, 8 s ... at most {@link #MAX_BACKOFF}. */
    static long backoffMillis(int attempts) {
        return Math.min(MAX_BACKOFF.toMillis(), 1_000L << Math.clamp(attempts, 1, 20));
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
