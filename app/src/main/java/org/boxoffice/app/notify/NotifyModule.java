package org.boxoffice.app.notify;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.topic.ITopic;
import io.helidon.webserver.http.HttpRouting;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.checkout.TicketCodes;
import org.boxoffice.app.mail.Channel;
import org.boxoffice.app.mail.MailDispatcher;
import org.boxoffice.app.mail.MailSettings;
import org.boxoffice.app.mail.SmtpChannel;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.ContactRepository;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.MailOutbox;
import org.boxoffice.domain.MailOutbox.Message;
import org.boxoffice.domain.MessageRetention;
import org.boxoffice.domain.TicketPolicyRepository;
import org.boxoffice.grid.Daemons;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Messages beside the ticket mail, wired: the phone endpoint, the SMS provider that
 * {@code boxoffice.sms.provider} names, and one dispatcher per channel over the {@code messages}
 * outbox (page, email, SMS), plus the look for waitlist offers about to lapse and the periodic
 * delete of messages sent longer ago than {@code boxoffice.notices.keepsentdays}. A hold's lapse is
 * written to the outbox by PostgreSQL itself, with the expiry (migration V18), so every expiry path
 * of every member tells it, once; a waitlist offer's notice for the page is written by the statement
 * that records the offer (V23). Built once per member by {@code Boxoffice}; stops on {@link #close}.
 */
public final class NotifyModule implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(NotifyModule.class.getName());

    private final NotifySettings settings;
    private final ContactRepository contacts;
    private final SmsProvider sms;
    private final ITopic<String> pages;
    private final Map<Message.Channel, MailDispatcher<Message>> dispatchers = new EnumMap<>(Message.Channel.class);
    private final ScheduledExecutorService offers;
    private final MessageRetention retention;
    private final ScheduledExecutorService purges;
    private final Authenticator auth;
    private final LongSupplier clock;
    private final TicketPolicyRepository policies;
    private final Stores stores;
    private final OpsMetrics metrics;

    /** How long a notice for the fan's open page is tried again: the page polls as well, and a stale notice helps nobody. */
    static final java.time.Duration PAGE_RETRY = java.time.Duration.ofMinutes(1);

    /**
     * What the messages keep in PostgreSQL, built by the wiring (one place builds each repository).
     *
     * @param outboxes   each channel's outbox of the {@code messages} table, given where a message to an
     *                   account without an address of that kind goes
     * @param smsToEmail hands a lapse notice meant for a phone to the email channel while SMS is off
     */
    public record Stores(ContactRepository contacts, TicketPolicyRepository policies, MessageRetention retention,
                         BiFunction<Message.Channel, UnaryOperator<String>, MailOutbox<Message>> outboxes,
                         SmsToEmail smsToEmail) {
    }

    /** Hands a text message to the email channel ({@code PostgresMailOutbox.smsToEmail}). */
    @FunctionalInterface
    public interface SmsToEmail {
        /** Marks text {@code mailId} failed with {@code why} and writes the same notice as an email, once; whether it was handed over. */
        boolean handOver(long mailId, String why);
    }

    /**
     * @param mail  how email leaves (the ticket mail's settings), and the address of an account
     *              that gave none ({@code boxoffice.mail.to})
     */
    public NotifyModule(NotifySettings settings, MailSettings mail, Stores stores, HazelcastInstance hz,
                        ShowDirectory shows, BookingRepository bookings, TicketCodes codes, Authenticator auth,
                        LongSupplier clock, OpsMetrics metrics) {
        this.settings = settings;
        this.auth = auth;
        this.clock = clock;
        this.metrics = metrics;
        this.stores = stores;
        this.contacts = stores.contacts();
        this.sms = settings.sms().off() ? null
                : settings.sms().http() ? new HttpSmsProvider(settings.sms()) : new SimulatedSmsProvider();
        this.pages = hz.getTopic(PageChannel.TOPIC);
        String pattern = mail.recipient();
        this.policies = stores.policies();
        // a notice for an open page is worth its minute; a mail or a text, a day (the fan may not look sooner)
        MailSettings pageRounds = mail.withTimeout(mail.timeout(), settings.every(), PAGE_RETRY);
        MailSettings smsRounds = mail.withTimeout(mail.timeout(), settings.sms().every(), settings.sms().retryFor());
        dispatch(Message.Channel.PAGE, new PageChannel(pages), pageRounds, mail, shows, bookings, codes, pattern);
        dispatch(Message.Channel.EMAIL, SmtpChannel.of(mail, clock), mail, mail, shows, bookings, codes, pattern);
        MailDispatcher<Message> texts = dispatch(Message.Channel.SMS, sms == null ? Channel.off("SMS is off (boxoffice.sms.provider=off)")
                : new SmsChannel(sms), smsRounds, mail, shows, bookings, codes, pattern);
        // a notice that chose SMS over email because the fan gave a number goes by email while SMS is off
        texts.whenOff(text -> stores.smsToEmail().handOver(text.mailId(), "not sent: SMS is off; sent by email"));
        texts.start();
        this.offers = Daemons.scheduler("offer-notices");
        long every = settings.every().toMillis();
        offers.schedule(() -> noteLapsingOffers(every, every), every, TimeUnit.MILLISECONDS);
        this.retention = stores.retention();
        this.purges = Daemons.scheduler("message-retention");
        long purgeEvery = settings.purgeEvery().toMillis();
        purges.scheduleWithFixedDelay(this::deleteOldMessages, purgeEvery, purgeEvery, TimeUnit.MILLISECONDS);
    }

    /** Deletes the messages sent longer ago than {@code boxoffice.notices.keepsentdays}; answers how many. */
    int deleteOldMessages() {
        try {
            int deleted = retention.deleteSentBefore(clock.getAsLong() - settings.keepSent().toMillis());
            if (deleted > 0) {
                LOG.info(() -> deleted + " messages sent more than " + settings.keepSent().toDays() + " days ago deleted");
            }
            return deleted;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "deleting old sent messages failed; trying again later", e);
            return 0;
        }
    }

    /** The dispatcher of {@code channel}'s outbox, started but for SMS's (its caller sets it up first). */
    private MailDispatcher<Message> dispatch(Message.Channel channel, Channel via, MailSettings rounds, MailSettings mail,
                                             ShowDirectory shows, BookingRepository bookings, TicketCodes codes,
                                             String pattern) {
        String name = channel.name().toLowerCase(java.util.Locale.ROOT);
        MailDispatcher<Message> dispatcher = new MailDispatcher<>(
                stores.outboxes().apply(channel, account -> pattern.replace("{accountId}", account)),
                new MessageComposer(channel, shows, bookings, codes, policies::printAtHome, mail), via, rounds, clock)
                .onGiveUp(() -> metrics.count(OpsMetrics.MESSAGES_GIVEN_UP, name));
        // the fan's open page hears of a lapse within about 1.5 s, busy or not
        dispatchers.put(channel, channel == Message.Channel.PAGE ? dispatcher.pollingSteadily() : dispatcher);
        return channel == Message.Channel.SMS ? dispatcher : dispatcher.start();
    }

    /**
     * Looks for waitlist offers about to lapse; while none is found the next look waits twice as
     * long, up to {@value MailDispatcher#IDLE_STRETCH} times {@code every} (every member looks, and
     * the lead is minutes), as the outboxes' dispatchers do.
     */
    private void noteLapsingOffers(long every, long waited) {
        long next = every;
        try {
            long now = clock.getAsLong();
            if (contacts.noteLapsingOffers(now, now + settings.offerLead().toMillis()) == 0) {
                next = Math.min(waited * 2, every * MailDispatcher.IDLE_STRETCH);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "looking for waitlist offers about to lapse failed; trying again", e);
        }
        long wait = next;
        try {
            offers.schedule(() -> noteLapsingOffers(every, wait), wait, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // closed meanwhile
        }
    }

    /** Registers the phone endpoint under {@code /v1}. */
    public void routing(HttpRouting.Builder routing) {
        routing.register("/v1", new PhoneService(contacts, auth, clock));
    }

    /** Calls {@code listener} with every notice for a page, from whichever member sent it. */
    public void onPageNotice(Consumer<PageNotice> listener) {
        pages.addMessageListener(m -> {
            try {
                listener.accept(PageNotice.parse(m.getMessageObject()));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a page notice could not be passed on", e);
            }
        });
    }

    /** The SMS provider this member sends through; null when SMS is off. */
    public SmsProvider sms() {
        return sms;
    }

    public ContactRepository contacts() {
        return contacts;
    }

    @Override
    public void close() {
        offers.shutdownNow();
        purges.shutdownNow();
        dispatchers.values().forEach(MailDispatcher::close);
        if (sms != null) {
            sms.close();
        }
    }
}
