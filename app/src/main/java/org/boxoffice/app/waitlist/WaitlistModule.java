package org.boxoffice.app.waitlist;

import com.hazelcast.core.HazelcastInstance;
import io.helidon.webserver.http.HttpRouting;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.holds.HoldManager;
import org.boxoffice.app.mail.MailDispatcher;
import org.boxoffice.app.mail.MailSettings;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.MailOutbox;
import org.boxoffice.domain.MailOutbox.OfferMail;
import org.boxoffice.domain.WaitlistRepository;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.ShowSnapshots;
import org.boxoffice.grid.waitlist.WaitlistOffers;
import org.boxoffice.grid.waitlist.Waitlists;

import java.util.function.LongSupplier;

/**
 * The waitlist wired together: the grid's lines and offer process on this member, the API, and
 * the offer mailer. Built once per member by {@code Boxoffice}, after the member started with the
 * waitlist's queue store; its background work stops on {@link #close}.
 */
public final class WaitlistModule implements AutoCloseable {

    /** Flake ids for waitlist entries. */
    public static final String ENTRY_IDS = "waitlist-ids";

    private final Authenticator auth;
    private final WaitlistRepository repository;
    private final WaitlistOffers offers;
    private final WaitlistManager manager;
    private final String recipientPattern;
    private final MailDispatcher<OfferMail> mailer;

    /** How often the lines' lengths are read for the metrics (one grouped query). */
    private static final long METER_MILLIS = 5_000;

    private final WaitlistMeter meter;

    /** @param offerMails the offer mails' outbox */
    public WaitlistModule(WaitlistSettings settings, MailSettings mail, MailOutbox<OfferMail> offerMails,
                          HazelcastInstance hz, ShowDirectory shows, Seats seats, Admissions admissions, ShowSnapshots snapshots,
                          InventoryRepository holdRecords, WaitlistRepository repository, HoldManager holds,
                          Authenticator auth, LongSupplier clock, OpsMetrics metrics) {
        this.auth = auth;
        this.repository = repository;
        this.offers = new WaitlistOffers(hz, seats, admissions, snapshots, holdRecords, repository, shows::find, clock,
                settings.grid()).start();
        this.manager = new WaitlistManager(shows, new Waitlists(hz), repository, snapshots, admissions, holds,
                hz.getFlakeIdGenerator(ENTRY_IDS), clock);
        this.recipientPattern = mail.recipient();
        this.mailer = new MailDispatcher<>(offerMails, new OfferMailComposer(shows), mail, clock)
                .onGiveUp(() -> metrics.count(OpsMetrics.MESSAGES_GIVEN_UP, "email")).start();
        this.meter = new WaitlistMeter(repository::lineLengths, metrics, METER_MILLIS);
    }

    /** Registers the waitlist's HTTP service under {@code /v1}. */
    public void routing(HttpRouting.Builder routing) {
        routing.register("/v1", new WaitlistService(manager, auth, recipientPattern));
    }

    public WaitlistOffers offers() {
        return offers;
    }

    public WaitlistRepository repository() {
        return repository;
    }

    @Override
    public void close() {
        meter.close();
        mailer.close();
        offers.close();
    }
}
