package org.boxoffice.app;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.topic.ITopic;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.observe.ObserveFeature;
import org.boxoffice.app.admission.AdmissionGate;
import org.boxoffice.app.admission.AdmissionSettings;
import org.boxoffice.app.admission.DoorSettings;
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
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.checkout.CheckoutModule;
import org.boxoffice.app.notify.NotifyModule;
import org.boxoffice.app.waitlist.WaitlistModule;
import org.boxoffice.app.holds.HoldManager;
import org.boxoffice.app.holds.HoldsService;
import org.boxoffice.app.holds.Idempotency;
import org.boxoffice.app.http.ErrorHandlers;
import org.boxoffice.app.http.HttpCaching;
import org.boxoffice.app.http.HttpConventions;
import org.boxoffice.app.http.RequestGuard;
import org.boxoffice.app.http.SecurityHeaders;
import org.boxoffice.app.http.OpenApiService;
import org.boxoffice.app.ops.AuditService;
import org.boxoffice.app.ops.ClusterSafety;
import org.boxoffice.app.ops.HealthProbes;
import org.boxoffice.app.ops.HttpRequestMeter;
import org.boxoffice.app.ops.MemberMetrics;
import org.boxoffice.app.ops.RefereeMetrics;
import org.boxoffice.app.ops.WaitlistMeter;
import org.boxoffice.app.ops.OutboxMeter;
import org.boxoffice.app.ops.InvariantChecker;
import org.boxoffice.app.ops.MeteredInventoryRepository;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.app.web.ShowEvents;
import org.boxoffice.app.web.ShowEventsService;
import org.boxoffice.app.web.WebApp;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.InventoryRepository;
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
import org.boxoffice.grid.catalog.EventListing;
import org.boxoffice.grid.room.WaitingRooms;
import org.boxoffice.grid.limits.SpentChallenges;
import org.boxoffice.grid.limits.VelocityLimits;
import org.boxoffice.mapstore.GridStores;
import org.boxoffice.mapstore.PostgresAdmissionRepository;
import org.boxoffice.mapstore.PostgresCatalogRepository;
import org.boxoffice.mapstore.PostgresIdempotencyReplies;
import org.boxoffice.mapstore.PostgresInventoryRepository;
import org.boxoffice.mapstore.PostgresRoomLedger;
import org.boxoffice.mapstore.RefereeIdentity;
import org.boxoffice.mapstore.SpentChallengeStore;
import org.boxoffice.mapstore.PostgresWaitlistRepository;

import javax.sql.DataSource;
import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The running service minus the web server: grid member, repositories, grid-side services and the
 * HTTP services built on them. {@link #routing} is shared by {@link Main} and the tests, so tests
 * exercise the real wiring.
 */
public final class Boxoffice implements AutoCloseable {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Boxoffice.class.getName());
    private static final String SHOW_ANNOUNCEMENTS = "catalog-shows";
    /** How often the waitlists' lengths are read for the metrics (one grouped query). */
    private static final long WAITLIST_METER_MILLIS = 5_000;

    private final AppSettings settings;
    private final DataSource dataSource;
    private final LongSupplier clock;
    private final HazelcastInstance hz;
    private final PostgresInventoryRepository referee;
    private final InventoryRepository inventoryRepository;
    private final org.boxoffice.domain.BookingRepository bookingRepository;
    private final ClusterSafety clusterSafety;
    private final CatalogRepository catalogRepository;
    private final ShowDirectory directory;
    private final Inventory inventory;
    private final ShowSnapshots snapshots;
    private final HoldSweeper sweeper;
    /** General admission's referee: its group commit stops after the member's last store. */
    private final PostgresAdmissionRepository admissionRepository;
    private final CatalogSearch search;
    private final CatalogChanges catalogChanges;
    private final CatalogAnswers answers;
    private final HealthProbes probes;
    private final Authenticator authenticator;
    private final Seats seats;
    private final Admissions admissions;
    private final HoldManager holds;
    private final Idempotency idempotency;
    private final ITopic<String> announcements;
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
    private final WaitlistMeter waitlistMeter;
    private final OutboxMeter outboxMeter;
    private volatile org.boxoffice.app.holds.Rehearsal rehearsal;
    private volatile boolean rehearsalDue;
    /** The longest a member promoted after its rehearsal waits for its partitions before it reports ready. */
    private static final Duration SETTLE_AFTER_PROMOTION = Duration.ofSeconds(15);
    /** Set when the member starts shutting down: a rehearsal ending then takes no partitions. */
    private volatile boolean closing;
    /** Set once the catalog was seen loaded: from then on readiness no longer asks the grid (see {@link #catalogLoaded}). */
    private volatile boolean catalogSeenLoaded;
    /** Milliseconds from the JVM's start to the first ready answer; 0 until then. */
    private volatile long readyAfterMillis;

    private Boxoffice(AppSettings settings, DataSource dataSource, LongSupplier clock, GridMember.Promotion promotion) {
        // a member started to rehearse is not ready from its first readiness check on
        this.rehearsalDue = promotion == GridMember.Promotion.WHEN_WARM;
        this.settings = settings;
        this.dataSource = dataSource;
        this.clock = clock;
        this.metrics = new OpsMetrics();
        this.referee = new PostgresInventoryRepository(dataSource);
        this.inventoryRepository = new MeteredInventoryRepository(referee, metrics);
        RefereeMetrics.register(referee, dataSource, metrics);
        this.catalogRepository = new PostgresCatalogRepository(dataSource);
        PostgresWaitlistRepository waitlistRepository = new PostgresWaitlistRepository(dataSource);
        this.admissionRepository = new PostgresAdmissionRepository(dataSource);
        PostgresRoomLedger roomLedger = new PostgresRoomLedger(dataSource, clock);
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
        this.idempotency = new Idempotency(hz, new PostgresIdempotencyReplies(dataSource), clock).start();
        this.allowances = new Allowances(hz, inventoryRepository);
        this.seats = new Seats(inventory, allowances, snapshots, metrics::holdStage);
        this.admissions = new Admissions(hz, admissionRepository, allowances, inventory, clock);
        this.sweeper = new HoldSweeper(hz, seats, inventoryRepository, directory::find, clock).alsoAdmissions(admissions)
                .start(settings.inventory().sweepEvery().toMillis(), settings.inventory().reconcileEvery().toMillis());
        this.bookingRepository = new org.boxoffice.mapstore.PostgresBookingRepository(dataSource);
        this.holds = new HoldManager(directory, seats, admissions, snapshots, inventoryRepository, bookingRepository,
                hz.getFlakeIdGenerator(GridMaps.HOLD_IDS), clock);
        AdmissionSettings admission = settings.admission();
        // a room admits buyers while anything is left: free seats, and admissions left in the show's areas
        this.rooms = new WaitingRooms(hz, clock, showId -> directory.find(showId)
                .map(s -> snapshots.get(s).counts()[org.boxoffice.domain.SeatState.Status.AVAILABLE.ordinal()]
                        + admissionsLeft(s)).orElse(0),
                admission.tick().toMillis(), roomLedger);
        this.passTokens = new PassTokens(admission.passSecret(), clock);
        DoorSettings door = admission.door();
        this.challenges = new Challenges(door.challengeSecret(), door.challengeCost(), door.challengeTtl().toMillis(),
                new SpentChallenges(hz, new SpentChallengeStore(dataSource, clock)), clock);
        this.gate = new AdmissionGate(rooms, passTokens, challenges, new VelocityLimits(hz, clock),
                new AdmissionGate.Limits(admission.accountPerMinute(), new RateLimiter(admission.addressPerMinute(), clock),
                        door.accountPerMinute(), door.addressPerMinute(), door.trustForwarded(), door.issuePerSecond()),
                metrics, showId -> directory.find(showId).isPresent());
        this.showEvents = new ShowEvents(snapshots, java.time.Duration.ofMillis(100));
        this.streams = new ShowEventsService(directory, showEvents, admission.streamsPerMember(), metrics, authenticator,
                passTokens, (account, show, hold) -> inventoryRepository.findHold(hold)
                        .filter(h -> h.showId().equals(show) && h.accountId().equals(account)).isPresent());
        this.checkout = new CheckoutModule(settings.checkout(), dataSource, hz, directory, seats, admissions, inventoryRepository,
                authenticator, idempotency, clock, metrics);
        this.waitlist = new WaitlistModule(settings.waitlist(), settings.checkout().mail(), dataSource, hz, directory,
                seats, admissions, snapshots, inventoryRepository, waitlistRepository, holds, authenticator,
                clock);
        this.notify = new NotifyModule(settings.notices(), settings.checkout().mail(), dataSource, hz, directory,
                checkout.bookings(), checkout.codes(), authenticator, clock);
        notify.onPageNotice(n -> showEvents.notice(n.showId(), n.holdPage(), n.accountId(), n.pageJson()));
        this.waitlistMeter = new WaitlistMeter(waitlistRepository::lineLengths, metrics).start(WAITLIST_METER_MILLIS);
        checkout.mailer().onGiveUp(() -> metrics.count(OpsMetrics.MESSAGES_GIVEN_UP, "email"));
        waitlist.mailer().onGiveUp(() -> metrics.count(OpsMetrics.MESSAGES_GIVEN_UP, "email"));
        notify.onGiveUp(channel -> metrics.count(OpsMetrics.MESSAGES_GIVEN_UP, channel));
        this.outboxMeter = new OutboxMeter(() -> org.boxoffice.mapstore.PostgresMailOutbox.backlog(dataSource), metrics,
                clock).start(WAITLIST_METER_MILLIS);
        this.invariants = new InvariantChecker(dataSource, metrics, () -> org.boxoffice.grid.Membership.oldest(hz.getCluster()),
                hz.getMap(GridMaps.INVARIANT_FINDINGS)).start(settings.ops().invariantEvery().toMillis(), 2_000);
        this.announcements = hz.getTopic(SHOW_ANNOUNCEMENTS);
        announcements.addMessageListener(m -> catalogRepository.show(m.getMessageObject()).ifPresent(directory::add));
        this.clusterSafety = new ClusterSafety(hz, Duration.ofSeconds(30), Duration.ofSeconds(10));
        this.probes = new HealthProbes("grid-member", () -> hz.getLifecycleService().isRunning(), this::readiness,
                this::safety, Duration.ofSeconds(1));
        MemberMetrics.register(hz, inventory, probes, () -> readyAfterMillis, metrics);
    }

    /** Admissions left in every general-admission area of {@code show}; 0 if they cannot be counted now. */
    private int admissionsLeft(org.boxoffice.domain.Show show) {
        int left = 0;
        try {
            for (org.boxoffice.domain.AdmissionArea area : admissions.areas(show.showId())) {
                left += admissions.left(show, area);
            }
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.FINE, "admissions left in " + show.showId() + " cannot be counted now", e);
        }
        return left;
    }

    /** Starts a member on a migrated database. */
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
     * Starts this member's rehearsal of an on-sale ({@link org.boxoffice.app.holds.Rehearsal}): until it
     * ends, readiness says {@code "rehearsed": false}. {@code base} is this member's own HTTP address.
     */
    /**
     * Says that a rehearsal will start once the web server listens: readiness is down from now on
     * until it has ended, so no probe sees this member ready between the two.
     */
    public void rehearsalDue() {
        rehearsalDue = true;
        probes.refresh();
    }

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
                    if (!closing && hz.getLifecycleService().isRunning() && GridMember.promote(hz)) {
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
                });
        this.rehearsal = r;
        probes.refresh();
        return r.start();
    }

    /**
     * Ready when this member serves now: it runs, sees at least its quorum of members, PostgreSQL
     * answers, the catalog is loaded and its rehearsal (if one was started) has ended. Whether
     * partitions are migrating is not asked: a member serves while they move (a claim on a moving
     * partition waits for the move, then goes on), and a readiness that asked would take every
     * member out of the load balancer during every join and leave. That question is
     * {@link #safety}'s, for whoever paces removals.
     */
    private HealthProbes.Check readiness() {
        boolean running = hz.getLifecycleService().isRunning();
        int members = running ? hz.getCluster().getMembers().size() : 0;
        boolean quorum = members >= settings.grid().quorum();
        boolean db;
        try (Connection c = dataSource.getConnection()) {
            db = c.isValid(2);
        } catch (Exception e) {
            db = false;
        }
        boolean catalog = running && catalogLoaded();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("member", running);
        data.put("quorum", quorum);
        data.put("database", db);
        data.put("catalog", catalog);
        data.put("members", members);
        org.boxoffice.app.holds.Rehearsal r = rehearsal;
        boolean rehearsed = r != null ? r.done() : !rehearsalDue;
        if (r != null || rehearsalDue) {
            data.put("rehearsed", rehearsed);
        }
        boolean up = running && quorum && db && catalog && rehearsed;
        if (up && readyAfterMillis == 0) {
            readyAfterMillis = Math.max(1, java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime());
            LOG.info(() -> String.format(java.util.Locale.ROOT, "this member is ready %.1f s after its JVM started "
                    + "(%d members)", readyAfterMillis / 1000.0, hz.getCluster().getMembers().size()));
        }
        if (readyAfterMillis > 0) {
            data.put("readyAfterMillis", readyAfterMillis);
        }
        return new HealthProbes.Check("boxoffice", up, data);
    }

    /**
     * Whether the next member may leave: no partition is migrating and every backup is in sync
     * ({@code PartitionService.isClusterSafe()}), asked of the whole cluster. An operator or a
     * script scaling down or rolling members waits for it between two removals; graceful shutdown
     * hands a leaving member's partitions over before it exits either way.
     */
    private HealthProbes.Check safety() {
        ClusterSafety.Verdict v = clusterSafety.check();
        return new HealthProbes.Check("cluster-safe", v.clusterSafe(), ClusterSafety.data(v));
    }

    /**
     * The catalog is loaded once the search map has its listings (an empty catalog counts as loaded).
     * A start-up condition: once seen, it holds for the member's life. The check is a call to every
     * partition, which waits while partitions migrate and reload after a member leaves or a split
     * heals; asked on every round, it held the readiness thread for over a minute in a split-brain
     * test, so readiness (and its member count) went stale exactly when it mattered.
     */
    private boolean catalogLoaded() {
        if (catalogSeenLoaded) {
            return true;
        }
        try {
            boolean loaded = !hz.getMap(GridMaps.CATALOG_EVENTS).isEmpty() || catalogRepository.isEmpty();
            catalogSeenLoaded = loaded;
            return loaded;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void announce(Show show) {
        // just saved: nobody holds any of its seats, so its new buyers need no read of their past
        allowances.newShow(show.showId(), show.sale().opensAt(), clock.getAsLong());
        IMap<String, EventListing> listings = hz.getMap(GridMaps.CATALOG_EVENTS);
        directory.event(show.eventId()).ifPresent(event -> directory.venue(event.venueId()).ifPresent(venue ->
                listings.set(event.eventId(), EventListing.of(event, venue, directory.showsOf(event.eventId())))));
        announcements.publish(show.showId());
        // a new show goes on sale warm: its blocks are loaded into the grid, onto their owners and
        // their backups (each from its seat rows, on its own partition), and this member's snapshot
        // is built before the creation is answered, so the first buyers of an on-sale do not wait
        // behind the loads, and no backup stops a partition thread to load a block at its first claim
        try {
            inventory.preload(show);
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.WARNING, "show " + show.showId() + " not preloaded (its first claims load its blocks): " + e.getMessage());
        }
        snapshots.get(show);
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
        waitlistMeter.close();
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
    }
}
