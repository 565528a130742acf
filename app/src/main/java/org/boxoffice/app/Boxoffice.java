package org.boxoffice.app;

import com.hazelcast.core.HazelcastInstance;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.observe.ObserveFeature;
import org.boxoffice.app.admission.AdmissionGate;
import org.boxoffice.app.admission.AdmissionSettings;
import org.boxoffice.app.admission.DoorSettings;
import org.boxoffice.app.admission.LeftOnSale;
import org.boxoffice.app.admission.ChallengeService;
import org.boxoffice.app.admission.Challenges;
import org.boxoffice.app.admission.PassTokens;
import org.boxoffice.app.admission.QueueService;
import org.boxoffice.app.admission.RateLimiter;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.DevTokenService;
import org.boxoffice.app.catalog.AdminService;
import org.boxoffice.app.catalog.CatalogAnswers;
import org.boxoffice.app.catalog.CatalogService;
import org.boxoffice.app.catalog.DemoCatalog;
import org.boxoffice.app.catalog.ShowAnnouncements;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.checkout.CheckoutModule;
import org.boxoffice.app.notify.NotifyModule;
import org.boxoffice.app.waitlist.WaitlistModule;
import org.boxoffice.app.holds.HoldManager;
import org.boxoffice.app.holds.HoldsService;
import org.boxoffice.app.holds.Idempotency;
import org.boxoffice.app.mail.OutboxMeter;
import org.boxoffice.app.http.ErrorHandlers;
import org.boxoffice.app.http.HttpCaching;
import org.boxoffice.app.http.HttpConventions;
import org.boxoffice.app.http.RequestGuard;
import org.boxoffice.app.http.SecurityHeaders;
import org.boxoffice.app.http.OpenApiService;
import org.boxoffice.app.ops.AuditService;
import org.boxoffice.app.ops.HealthProbes;
import org.boxoffice.app.ops.HttpRequestMeter;
import org.boxoffice.app.ops.MemberMetrics;
import org.boxoffice.app.ops.MemberReadiness;
import org.boxoffice.app.ops.RefereeMetrics;
import org.boxoffice.app.ops.InvariantChecker;
import org.boxoffice.app.ops.MeteredInventoryRepository;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.app.web.ShowEvents;
import org.boxoffice.app.web.ShowEventsService;
import org.boxoffice.app.web.WebApp;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.MailOutbox;
import org.boxoffice.domain.MailOutbox.OfferMail;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.Allowances;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.member.GridMember;
import org.boxoffice.grid.HoldSweeper;
import org.boxoffice.grid.Inventory;
import org.boxoffice.grid.ShowSnapshots;
import org.boxoffice.grid.catalog.CatalogChanges;
import org.boxoffice.grid.catalog.CatalogSearch;
import org.boxoffice.grid.room.WaitingRooms;
import org.boxoffice.grid.limits.SpentChallenges;
import org.boxoffice.grid.limits.VelocityLimits;
import org.boxoffice.mapstore.GridStores;
import org.boxoffice.mapstore.Migrations;
import org.boxoffice.mapstore.PostgresAdmissionRepository;
import org.boxoffice.mapstore.PostgresBookingRepository;
import org.boxoffice.mapstore.PostgresCatalogRepository;
import org.boxoffice.mapstore.PostgresContactRepository;
import org.boxoffice.mapstore.PostgresGates;
import org.boxoffice.mapstore.PostgresMailOutbox;
import org.boxoffice.mapstore.PostgresMessageRetention;
import org.boxoffice.mapstore.PostgresTicketPolicies;
import org.boxoffice.mapstore.PostgresTransferRepository;
import org.boxoffice.mapstore.PostgresIdempotencyReplies;
import org.boxoffice.mapstore.PostgresInventoryRepository;
import org.boxoffice.mapstore.PostgresRoomLedger;
import org.boxoffice.mapstore.RefereeIdentity;
import org.boxoffice.mapstore.SpentChallengeStore;
import org.boxoffice.mapstore.PostgresWaitlistRepository;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * The running service minus the web server: grid member, repositories, grid-side services and the
 * HTTP services built on them. {@link #routing} is shared by {@link Main} and the tests, so tests
 * exercise the real wiring.
 */
public final class Boxoffice implements AutoCloseable {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Boxoffice.class.getName());

    private final AppSettings settings;
    private final LongSupplier clock;
    private final HazelcastInstance hz;
    private final PostgresInventoryRepository referee;
    private final InventoryRepository inventoryRepository;
    private final org.boxoffice.domain.BookingRepository bookingRepository;
    private final CatalogRepository catalogRepository;
    private final ShowDirectory directory;
    private final Inventory inventory;
    private final ShowSnapshots snapshots;
    private final HoldSweeper sweeper;
    /** General admission's referee: its group commit stops after the member's last store. */
    private final PostgresAdmissionRepository admissionRepository;
    private final PostgresIdempotencyReplies idempotencyReplies;
    private final CatalogSearch search;
    private final CatalogChanges catalogChanges;
    private final CatalogAnswers answers;
    private final HealthProbes probes;
    private final Authenticator authenticator;
    private final Seats seats;
    private final Admissions admissions;
    private final HoldManager holds;
    private final Idempotency idempotency;
    private final ShowAnnouncements announcements;
    private final Allowances allowances;
    private final WaitingRooms rooms;
    private final OpsMetrics metrics;
    private final InvariantChecker invariants;
    private final PassTokens passTokens;
    private final AdmissionGate gate;
    private final Challenges challenges;
    private final CheckoutModule checkout;
    private final WaitlistModule waitlist;
    private final NotifyModule notify;
    private final ShowEvents showEvents;
    private final ShowEventsService streams;
    private final OutboxMeter outboxMeter;
    private final MemberReadiness readiness;
    private volatile org.boxoffice.app.holds.Rehearsal rehearsal;
    /** The longest a member promoted after its rehearsal waits for its partitions before it reports ready. */
    private static final Duration SETTLE_AFTER_PROMOTION = Duration.ofSeconds(15);
    /** Set when the member starts shutting down: a rehearsal ending then takes no partitions. */
    private volatile boolean closing;

    private Boxoffice(AppSettings settings, DataSource dataSource, LongSupplier clock, GridMember.Promotion promotion) {
        this.settings = settings;
        this.clock = clock;
        this.metrics = new OpsMetrics();
        // every repository is built here, once, and handed to what uses it
        this.referee = new PostgresInventoryRepository(dataSource);
        this.inventoryRepository = new MeteredInventoryRepository(referee, metrics);
        RefereeMetrics.register(referee, dataSource, Migrations.appliedVersion(dataSource), metrics);
        this.catalogRepository = new PostgresCatalogRepository(dataSource);
        if (settings.database().seedDemo()) {
            // before the member starts, so that it loads the demo's shows with the rest of the catalog
            DemoCatalog.seedIfEmpty(catalogRepository, settings.holds(), Instant.ofEpochMilli(clock.getAsLong()));
        }
        PostgresWaitlistRepository waitlistRepository = new PostgresWaitlistRepository(dataSource);
        this.admissionRepository = new PostgresAdmissionRepository(dataSource);
        PostgresRoomLedger roomLedger = new PostgresRoomLedger(dataSource, clock);
        this.idempotencyReplies = new PostgresIdempotencyReplies(dataSource);
        SpentChallengeStore spentChallenges = new SpentChallengeStore(dataSource, clock);
        this.bookingRepository = new PostgresBookingRepository(dataSource);
        PostgresTicketPolicies ticketPolicies = new PostgresTicketPolicies(dataSource);
        CheckoutModule.Stores checkoutStores = new CheckoutModule.Stores(bookingRepository,
                new PostgresTransferRepository(dataSource), new PostgresGates(dataSource), ticketPolicies,
                PostgresMailOutbox.ticketMails(dataSource));
        NotifyModule.Stores notifyStores = new NotifyModule.Stores(new PostgresContactRepository(dataSource), ticketPolicies,
                new PostgresMessageRetention(dataSource),
                (channel, defaultAddress) -> PostgresMailOutbox.messages(dataSource, channel, defaultAddress),
                (mailId, why) -> PostgresMailOutbox.smsToEmail(dataSource, mailId, why));
        MailOutbox<OfferMail> offerMails = PostgresMailOutbox.offerMails(dataSource);
        this.hz = GridMember.start(settings.grid(),
                GridStores.of(inventoryRepository, catalogRepository, waitlistRepository, admissionRepository),
                RefereeIdentity.of(dataSource),
                promotion);
        this.directory = new ShowDirectory(catalogRepository);
        this.inventory = new Inventory(hz);
        this.snapshots = new ShowSnapshots(inventory, clock, settings.inventory().snapshotEvery().toMillis());

        this.search = new CatalogSearch(hz);
        this.catalogChanges = new CatalogChanges(hz);
        // the directory's version moves when this member learns of a show (the announcement may
        // arrive after the search map's change event): answers wait for both
        this.answers = new CatalogAnswers(() -> catalogChanges.version() + directory.version(), clock);
        this.authenticator = new Authenticator(settings.auth(), clock);
        this.idempotency = new Idempotency(hz, idempotencyReplies, clock).start();
        this.allowances = new Allowances(hz, inventoryRepository);
        this.seats = new Seats(inventory, allowances, snapshots, metrics::holdStage);
        this.admissions = new Admissions(hz, admissionRepository, allowances, inventory, clock);
        this.sweeper = new HoldSweeper(hz, seats, inventoryRepository, directory::find, clock).alsoAdmissions(admissions)
                .start(settings.inventory().sweepEvery().toMillis(), settings.inventory().reconcileEvery().toMillis());
        this.holds = new HoldManager(directory, seats, admissions, snapshots, inventoryRepository, bookingRepository,
                hz.getFlakeIdGenerator(GridMaps.HOLD_IDS), clock);
        AdmissionSettings admission = settings.admission();
        this.rooms = new WaitingRooms(hz, clock, new LeftOnSale(directory, snapshots, admissions)::of,
                admission.tick().toMillis(), roomLedger);
        this.passTokens = new PassTokens(admission.passSecret(), clock);
        DoorSettings door = admission.door();
        this.challenges = new Challenges(door.challengeSecret(), door.challengeCost(), door.challengeTtl().toMillis(),
                new SpentChallenges(hz, spentChallenges), clock);
        this.gate = new AdmissionGate(rooms, passTokens, challenges, new VelocityLimits(hz, clock),
                new AdmissionGate.Limits(admission.accountPerMinute(), new RateLimiter(admission.addressPerMinute(), clock),
                        door.accountPerMinute(), door.addressPerMinute(), door.trustForwarded(), door.issuePerSecond()),
                metrics, showId -> directory.find(showId).isPresent());
        this.showEvents = new ShowEvents(snapshots, java.time.Duration.ofMillis(100));
        this.streams = new ShowEventsService(directory, showEvents, admission.streamsPerMember(), metrics, authenticator,
                passTokens, (account, show, hold) -> inventoryRepository.findHold(hold)
                        .filter(h -> h.showId().equals(show) && h.accountId().equals(account)).isPresent());
        this.checkout = new CheckoutModule(settings.checkout(), checkoutStores, hz, directory, seats, admissions,
                inventoryRepository, authenticator, idempotency, clock, metrics);
        this.waitlist = new WaitlistModule(settings.waitlist(), settings.checkout().mail(), offerMails, hz, directory,
                seats, admissions, snapshots, inventoryRepository, waitlistRepository, holds, authenticator, clock, metrics);
        this.notify = new NotifyModule(settings.notices(), settings.checkout().mail(), notifyStores, hz, directory,
                bookingRepository, checkout.codes(), authenticator, clock, metrics);
        notify.onPageNotice(n -> showEvents.notice(n.showId(), n.holdPage(), n.accountId(), n.pageJson()));
        this.outboxMeter = new OutboxMeter(() -> PostgresMailOutbox.backlog(dataSource), metrics, clock,
                OutboxMeter.EVERY_MILLIS);
        this.invariants = new InvariantChecker(dataSource, metrics, () -> org.boxoffice.grid.Membership.oldest(hz.getCluster()),
                hz.getMap(GridMaps.INVARIANT_FINDINGS)).start(settings.ops().invariantEvery().toMillis(), 2_000);
        this.announcements = new ShowAnnouncements(hz, catalogRepository, directory, inventory, snapshots);
        this.readiness = new MemberReadiness(hz, settings.grid().quorum(), dataSource, catalogRepository::isEmpty,
                promotion == GridMember.Promotion.WHEN_WARM); // started to rehearse: not ready from its first check on
        this.probes = new HealthProbes("grid-member", () -> hz.getLifecycleService().isRunning(), readiness::readiness,
                readiness::safety, Duration.ofSeconds(1));
        MemberMetrics.register(hz, inventory, probes, readiness::readyAfterMillis, metrics);
    }

    /**
     * Starts a member on a migrated database, seeding the demo catalog into it first if the settings
     * ask for it ({@code boxoffice.demo.seed}) and it has none.
     */
    public static Boxoffice start(AppSettings settings, DataSource dataSource, LongSupplier clock) {
        return new Boxoffice(settings, dataSource, clock, GridMember.Promotion.AT_ONCE);
    }

    /**
     * A member that will {@link #rehearse} before it serves: joining a cluster whose other members
     * own the data, it stays a lite member (no partition migrates to it) until its rehearsal ends.
     */
    public static Boxoffice startToRehearse(AppSettings settings, DataSource dataSource, LongSupplier clock) {
        return new Boxoffice(settings, dataSource, clock, GridMember.Promotion.WHEN_WARM);
    }

    /**
     * The web server serving {@link #routing} listens on {@code port} of this machine: what needs the
     * service's own address learns it (the payment provider, where the webhook is).
     */
    public void serving(int port) {
        checkout.serving(port);
    }

    /** Every route of the service, with errors mapped in one place. */
    public void routing(HttpRouting.Builder routing) {
        ErrorHandlers.register(routing);
        routing.addFilter(new HttpRequestMeter(metrics));
        routing.addFilter(new SecurityHeaders());    // before any filter that answers by itself
        routing.addFilter(new HttpConventions());    // before any filter that throws: a HEAD is known as one
        routing.addFilter(new RequestGuard());
        HttpCaching.register(routing);
        probes.routing(routing);
        routing.register("/v1", new CatalogService(search, directory, snapshots, answers, admissions, clock))
                .register("/v1", new HoldsService(holds, authenticator, idempotency, gate, rooms, metrics))
                .register("/v1", new QueueService(authenticator, directory, rooms, passTokens, gate,
                        settings.admission(), clock, metrics))
                .register("/v1", new ChallengeService(authenticator, directory, rooms, challenges, gate, clock))
                .register("/v1", new AuditService(authenticator, directory, inventoryRepository))
                .register("/v1", new AdminService(authenticator, catalogRepository, directory, seats, snapshots,
                        settings.holds(), this::announce, admissions, clock))
                .register("/v1", streams)
                .register("/openapi", new OpenApiService());
        checkout.routing(routing);
        waitlist.routing(routing);
        notify.routing(routing);
        if (settings.auth().devTokens() && authenticator.canIssue()) {
            routing.register("/v1", new DevTokenService(authenticator, settings.auth().devRoles()));
        }
        routing.any("/v1/*", HttpConventions::unrouted);
        // the fan's web app, last: nothing under /v1 reaches it
        routing.register("/", WebApp.assets());
    }

    /**
     * Metrics at {@code /observe/metrics}. The health probes at {@code /observe/health} are part of
     * {@link #routing} ({@link HealthProbes}): liveness reads a flag, readiness is checked once a
     * second off the request path.
     */
    public ObserveFeature observe() {
        return ObserveFeature.just(MetricsObserver.create());
    }

    /**
     * Says that a rehearsal will start once the web server listens: readiness is down from now on
     * until it has ended, so no probe sees this member ready between the two.
     */
    public void rehearsalDue() {
        readiness.rehearsalDue();
        probes.refresh();
    }

    /**
     * Starts this member's rehearsal of an on-sale ({@link org.boxoffice.app.holds.Rehearsal}): until it
     * ends, readiness says {@code "rehearsed": false}. {@code base} is this member's own HTTP address.
     */
    public org.boxoffice.app.holds.Rehearsal rehearse(java.net.URI base, Duration max) {
        HazelcastInstance stage = GridMember.startStage();
        String tag = GridMaps.rehearsalTag(hz.getCluster().getLocalMember().getUuid());
        Inventory stageInventory = new Inventory(stage, GridMaps.REHEARSAL_PREFIX + "inventory");
        ShowSnapshots stageSnapshots = new ShowSnapshots(stageInventory, clock, settings.inventory().snapshotEvery().toMillis());
        org.boxoffice.app.holds.Rehearsal r = new org.boxoffice.app.holds.Rehearsal(stageInventory,
                new Seats(stageInventory, new Allowances(stage, GridMaps.REHEARSAL_PREFIX + "allowances",
                        (show, account) -> org.boxoffice.domain.AccountAllowance.empty()), stageSnapshots),
                stageSnapshots, stage.getFlakeIdGenerator(GridMaps.HOLD_IDS), inventoryRepository, bookingRepository,
                gate.withVelocity(new VelocityLimits(stage, clock)), directory, base, clock, max, tag, () -> {
                    stageSnapshots.close();
                    stage.getLifecycleService().terminate();
                    promoteAfterRehearsal();
                });
        this.rehearsal = r;
        readiness.rehearsing(r::done);
        probes.refresh();
        return r.start();
    }

    /** The rehearsal ended: this member takes its share of the partitions, unless it is shutting down. */
    private void promoteAfterRehearsal() {
        if (closing || !hz.getLifecycleService().isRunning() || !GridMember.promote(hz)) {
            return;
        }
        // ready once its share of the partitions has arrived, not in the middle of the move
        long t0 = System.nanoTime();
        boolean settled;
        try {
            settled = GridMember.awaitSettled(hz, SETTLE_AFTER_PROMOTION);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            settled = false;
        }
        boolean inTime = settled;
        LOG.info(() -> String.format(java.util.Locale.ROOT, "rehearsed: this member now owns partitions of the "
                + "cluster (%s after %.1f s)", inTime ? "their migration ended" : "still migrating",
                (System.nanoTime() - t0) / 1e9));
    }

    /** A show just saved: its new buyers need no read of their past (nobody holds any of its seats), and the cluster hears of it. */
    private void announce(Show show) {
        allowances.newShow(show.showId(), show.sale().opensAt(), clock.getAsLong());
        announcements.announce(show);
    }

    public HazelcastInstance hazelcast() {
        return hz;
    }

    public Authenticator authenticator() {
        return authenticator;
    }

    public Inventory inventory() {
        return inventory;
    }

    public ShowDirectory directory() {
        return directory;
    }

    public HoldSweeper sweeper() {
        return sweeper;
    }

    public NotifyModule notifications() {
        return notify;
    }

    public CheckoutModule checkout() {
        return checkout;
    }

    public WaitlistModule waitlist() {
        return waitlist;
    }

    public InvariantChecker invariants() {
        return invariants;
    }

    public WaitingRooms rooms() {
        return rooms;
    }

    public ShowSnapshots snapshots() {
        return snapshots;
    }

    public InventoryRepository inventoryRepository() {
        return inventoryRepository;
    }

    @Override
    public void close() {
        closing = true;
        org.boxoffice.app.holds.Rehearsal r = rehearsal;
        if (r != null) {
            r.stop();
        }
        probes.close();
        showEvents.close();
        outboxMeter.close();
        waitlist.close();
        notify.close();
        checkout.close();
        invariants.close();
        idempotency.close();
        rooms.close();
        sweeper.close();
        snapshots.close();
        catalogChanges.close();
        hz.shutdown();
        // after the member: its last stores (a graceful shutdown migrates, never writes) are done
        referee.close();
        admissionRepository.close();
        idempotencyReplies.close();
    }
}
