package org.boxoffice.app.holds;

import com.hazelcast.flakeidgen.FlakeIdGenerator;
import org.boxoffice.app.admission.AdmissionGate;
import org.boxoffice.app.auth.AuthSettings;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.SeatPlan;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.Json;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.Inventory;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.ShowSnapshots;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A starting member's rehearsal of an on-sale, before it reports ready.
 *
 * <p>A fresh JVM runs the hold path interpreted and compiles it while the first buyers wait: on two
 * cores the JIT compiler took a third of the machine for half a minute. So a member first sells
 * private shows to itself. Buyer threads make hold requests as fans do: a JSON body parsed by the
 * hold endpoint's parser, sometimes a bearer token verified (by an authenticator with a key of its
 * own), named seats or best available, through the same {@link HoldRules}, velocity limit,
 * {@link HoldManager}, {@link Seats}, block and allowance processors as the fans' requests. They let
 * a third of their holds go again and are refused with alternatives once a show sells out; some of
 * them read the referee as a fan's first hold and a release do (an account's allowance, a hold:
 * reads that find nothing). Reader threads fetch the public catalog, a show on sale, its
 * availability and its seat map over this member's own HTTP port. It stops once the JIT compiler has
 * been quiet for {@value #QUIET_WINDOW_MILLIS} ms (after at least {@value #MIN_MILLIS} ms), or at the
 * configured limit.
 *
 * <p>Where it runs: on this member's private stage ({@code GridMember.startStage}), a one-member
 * grid in this JVM with the real member's configuration that joins nobody. Its blocks, allowances
 * and velocity buckets live there, so the rehearsal costs the serving members nothing, and a member
 * that joins a cluster in the middle of a sale stays a lite member (owning no partition) until its
 * rehearsal has ended: the partitions it takes over are then served by compiled code. The stage is
 * shut down at the end, whatever happened; nothing of it ever exists in the cluster.
 *
 * <p>What it never touches: the fans' seats, and PostgreSQL but for those reads. Its shows exist
 * only in this object's own directory, never in the catalog; its store is offloaded like the
 * referee's but writes nowhere. Its HTTP requests are reads of public answers (no hold is made over
 * HTTP, so no velocity limit of a client address is spent). What it does not rehearse: the HTTP
 * hold and release requests themselves, calls to other members (its grid has one), and the
 * referee's group commit (JDBC and PostgreSQL), which the first real holds compile.
 */
public final class Rehearsal {

    private static final Logger LOG = Logger.getLogger(Rehearsal.class.getName());
    /** The JIT compiler counts as quiet when it compiled less than this in the last window. */
    private static final long QUIET_COMPILE_MILLIS = 100;
    private static final long QUIET_WINDOW_MILLIS = 2_000;
    private static final long MIN_MILLIS = 4_000;
    private static final int BUYERS = 16;
    private static final int READERS = 4;
    /** Made-up accounts: many, so that none reaches a limit. */
    private static final int ACCOUNTS = 2_048;
    /** Private shows on sale at once, each one block group (spread over the stage's partition threads). */
    private static final int LANES = 8;
    /** A show is replaced once this share of its seats is left: the sold-out refusals have been rehearsed by then. */
    private static final double SOLD_OUT = 0.03;

    /** What a rehearsal did. */
    public record Result(long millis, long holds, long releases, long refusals, long reads, long errors, long compileMillis,
                         boolean quiet, int shows) {
    }

    private final Inventory inventory;
    private final ShowSnapshots snapshots;
    private final ShowDirectory privateShows;
    private final HoldManager holds;
    private final Seats seats;
    private final AdmissionGate admission;
    private final ShowDirectory publicShows;
    private final URI base;
    private final LongSupplier clock;
    private final long maxMillis;
    private final String tag;
    private final InventoryRepository repository;
    /**
     * Verifies tokens the way the service's authenticator does, with a key of its own: 32 random
     * bytes made here and never kept, so nothing it signs is accepted anywhere else.
     */
    private final Authenticator tokens;
    private final Runnable cleanUp;

    /** The private shows on sale now, one per lane. */
    private final AtomicReferenceArray<Show> lanes = new AtomicReferenceArray<>(LANES);
    /** Made-up accounts, many, so that none reaches a limit. */
    private final String[] accounts;
    private final AtomicInteger showCount = new AtomicInteger();
    private final AtomicInteger showsMade = new AtomicInteger();
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong released = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong read = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private volatile boolean stop;
    private volatile Result result;

    /**
     * @param inventory   a rehearsal inventory ({@code GridMaps.REHEARSAL_PREFIX}) on the stage, used by {@code seats}
     * @param seats       seats over {@code inventory}, rehearsal allowances and {@code snapshots}
     * @param snapshots   snapshots of {@code inventory}
     * @param holdIds     the stage's hold ids
     * @param repository  the referee, for lookups of a hold and of an account's allowance (reads)
     * @param bookings    the referee's payments, which a buyer's release consults
     * @param admission   the velocity limits a hold takes from, in the stage
     * @param publicShows the catalog fans see: one of its shows is read over HTTP, if there is one
     * @param base        this member's own HTTP address
     * @param tag         names this member's private shows and accounts
     * @param cleanUp     shuts the stage down when the rehearsal ends (and lets the member own partitions)
     */
    public Rehearsal(Inventory inventory, Seats seats, ShowSnapshots snapshots, FlakeIdGenerator holdIds,
                     InventoryRepository repository, BookingRepository bookings, AdmissionGate admission, ShowDirectory publicShows, URI base, LongSupplier clock,
                     Duration max, String tag, Runnable cleanUp) {
        this.inventory = inventory;
        this.snapshots = snapshots;
        this.privateShows = new ShowDirectory(CatalogRepository.none());
        this.holds = new HoldManager(privateShows, seats, snapshots, repository, bookings, holdIds, clock);
        this.seats = seats;
        this.admission = admission;
        this.publicShows = publicShows;
        this.base = base;
        this.clock = clock;
        this.maxMillis = max.toMillis();
        this.tag = tag;
        this.accounts = madeUpAccounts();
        this.repository = repository;
        this.tokens = ownAuthenticator(clock);
        this.cleanUp = cleanUp;
    }

    /**
     * An authenticator like the service's, with an HS256 key of 32 random bytes made here and kept
     * nowhere: what it signs, no other authenticator accepts ({@code RehearsalTest} sends such tokens
     * to the service in parallel and gets 401s).
     */
    public static Authenticator ownAuthenticator(LongSupplier clock) {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        return new Authenticator(new AuthSettings(java.util.HexFormat.of().formatHex(key), null, null, false, false), clock);
    }

    /** Starts the rehearsal on a thread of its own. */
    public Rehearsal start() {
        Thread t = new Thread(this::run, "rehearsal");
        t.setDaemon(true);
        t.start();
        return this;
    }

    /** True once the rehearsal has ended (done, failed or stopped). */
    public boolean done() {
        return result != null;
    }

    /** What it did; null while it runs. */
    public Result result() {
        return result;
    }

    /** Ends the rehearsal early (the member is shutting down). */
    public void stop() {
        stop = true;
    }

    /** The rehearsal itself: runs to the end and returns what it did (the thread of {@link #start}, or a test). */
    public Result run() {
        long t0 = System.nanoTime();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long compile0 = timed ? jit.getTotalCompilationTime() : 0;
        boolean quiet = false;
        List<Thread> threads = new ArrayList<>();
        HttpClient http = null;
        try {
            for (int lane = 0; lane < LANES; lane++) {
                nextShow(lane, null);
            }
            for (int i = 0; i < BUYERS; i++) {
                int seed = i;
                threads.add(Thread.ofPlatform().daemon().name("rehearsal-buyer-" + i).start(() -> buy(seed)));
            }
            http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
            List<String> paths = readPaths();
            for (int i = 0; i < READERS; i++) {
                HttpClient client = http;
                int offset = i;
                threads.add(Thread.ofVirtual().name("rehearsal-reader-" + i).start(() -> readLoop(client, paths, offset)));
            }
            long windowStart = System.nanoTime();
            long windowCompile = compile0;
            while (!stop) {
                Thread.sleep(250);
                long elapsed = (System.nanoTime() - t0) / 1_000_000;
                if (elapsed >= maxMillis) {
                    break;
                }
                if (errors.get() > 1_000 && errors.get() > held.get()) {
                    LOG.warning(() -> "rehearsal: stopped early, " + errors.get() + " errors (is the grid below its quorum?)");
                    break;
                }
                if (timed && (System.nanoTime() - windowStart) / 1_000_000 >= QUIET_WINDOW_MILLIS) {
                    long compiled = jit.getTotalCompilationTime();
                    if (compiled - windowCompile < QUIET_COMPILE_MILLIS && elapsed >= MIN_MILLIS) {
                        quiet = true;
                        break;
                    }
                    windowStart = System.nanoTime();
                    windowCompile = compiled;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "rehearsal failed; the member serves without it", e);
        } finally {
            stop = true;
            if (http != null) {
                http.shutdownNow(); // a reader waiting for an answer gets an IOException and ends
            }
            for (Thread t : threads) {
                try {
                    t.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            try {
                cleanUp.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "rehearsal: could not shut its stage down or take over partitions", e);
            }
            // whatever happened, it has ended: readiness must not wait for it for good
            result = new Result((System.nanoTime() - t0) / 1_000_000, held.get(), released.get(), refused.get(), read.get(),
                    errors.get(), timed ? jit.getTotalCompilationTime() - compile0 : -1, quiet, showsMade.get());
        }
        Result r = result;
        LOG.info(() -> String.format(java.util.Locale.ROOT, "rehearsal: %,d holds (%,d released), %,d refusals and %,d reads in %,d ms on %d private"
                        + " shows (%,d errors); the JIT compiler spent %,d ms, %s", r.holds(), r.releases(), r.refusals(), r.reads(), r.millis(),
                r.shows(), r.errors(), r.compileMillis(), r.quiet() ? "and was quiet at the end" : "and was still busy at the limit"));
        return r;
    }

    /** One buyer: named seats mostly, best available sometimes, as fans do in an on-sale. */
    private void buy(int seed) {
        SplittableRandom random = new SplittableRandom(seed * 7919L + System.nanoTime());
        while (!stop) {
            int lane = random.nextInt(LANES);
            Show show = lanes.get(lane);
            try {
                String[] pool = accounts;
                Principal buyer = new Principal(pool[random.nextInt(pool.length)], Set.of());
                int quantity = 1 + random.nextInt(4);
                // the request as a fan's arrives: a JSON body, parsed the way the hold endpoint parses it
                String body = random.nextInt(5) == 0
                        ? "{\"bestAvailable\":{\"quantity\":" + quantity + "}}"
                        : Json.write(Map.of("seatIds", adjacent(show.layout(), random, quantity)));
                HoldRequest request = HoldsService.parse(Json.MAPPER.readTree(body));
                if (random.nextInt(4) == 0) {
                    // and a bearer token verified as a fan's is, by an authenticator of its own (see below)
                    tokens.verify(tokens.issue(buyer.accountId(), Set.of(), Duration.ofMinutes(1)));
                }
                if (random.nextInt(8) == 0) {
                    // a fan's first hold in a show loads the account's allowance from the referee: a read
                    repository.allowance(show.showId(), buyer.accountId());
                }
                HoldAttempt attempt = holds.check(show.showId(), request);
                if (attempt.refusedAtTheGate()) {
                    HoldsService.gateAnswer(attempt.refusal().orElseThrow());
                    refused.incrementAndGet();
                } else {
                    // past the fast gate a fan's hold takes from its account's cluster-wide bucket,
                    // answered while the allowance is reserved
                    Outcome<HoldView> outcome = holds.hold(buyer, attempt, admission.holdPermit(buyer, show.showId()));
                    if (outcome instanceof Outcome.Done<HoldView> h) {
                        Json.bytes(h.value());
                        held.incrementAndGet();
                        if (random.nextInt(3) == 0) {
                            release(show, buyer, h.value(), random);
                        }
                    } else if (outcome instanceof Outcome.Refused<HoldView> r) {
                        Json.bytes(Map.of("error", r.reason().name(), "message", r.message(), "details", r.details()));
                        refused.incrementAndGet();
                    }
                }
                if (snapshots.get(show).available() < SOLD_OUT * show.layout().totalSeats()) {
                    nextShow(lane, show);
                }
            } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException e) {
                if (errors.incrementAndGet() == 1) {
                    LOG.log(Level.INFO, "rehearsal: a buyer's first error (the rehearsal goes on)", e);
                }
            }
        }
    }

    /**
     * A buyer who lets go at once, as many do: the seats go back through {@link Seats#release}, as
     * a fan's do. One release in four also takes the hold manager's way first, which looks the hold
     * up in the referee (a primary-key read that finds nothing: a rehearsal's hold is not there),
     * so the referee's read path is compiled too at a few hundred reads a second.
     */
    private void release(Show show, Principal buyer, HoldView hold, SplittableRandom random) {
        if (random.nextInt(4) == 0) {
            holds.release(buyer, hold.holdId());
        }
        List<ShowLayout.SeatRef> refs = hold.seatIds().stream().map(id -> show.layout().locate(id).orElseThrow()).toList();
        seats.release(show, hold.holdId(), buyer.accountId(), ShowLayout.byBlock(refs).keySet(), clock.getAsLong(),
                buyer.accountId(), "released by buyer", false);
        released.incrementAndGet();
    }

    /** Up to {@code quantity} adjacent seats from a random spot (fewer at the end of a row). */
    private static List<String> adjacent(ShowLayout layout, SplittableRandom random, int quantity) {
        int first = random.nextInt(layout.totalSeats());
        ShowLayout.Seat seat = layout.seat(first);
        List<String> ids = new ArrayList<>(quantity);
        ids.add(seat.seatId());
        for (int i = first + 1; ids.size() < quantity && i < layout.totalSeats(); i++) {
            ShowLayout.Seat next = layout.seat(i);
            if (!next.section().equals(seat.section()) || !next.row().equals(seat.row())) {
                break;
            }
            ids.add(next.seatId());
        }
        return ids;
    }

    private String[] madeUpAccounts() {
        String[] ids = new String[ACCOUNTS];
        for (int i = 0; i < ACCOUNTS; i++) {
            ids[i] = "~rehearsal-" + tag + "-" + i;
        }
        return ids;
    }

    /** Replaces lane {@code lane}'s {@code soldOut} show (null at the start) by a new private show, once. */
    private synchronized void nextShow(int lane, Show soldOut) {
        if (lanes.get(lane) != soldOut) {
            return; // another buyer replaced it
        }
        String showId = "~rehearsal-" + tag + "-" + showCount.getAndIncrement();
        long now = clock.getAsLong();
        List<SeatPlan.SectionPlan> sections = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            sections.add(new SeatPlan.SectionPlan(String.valueOf((char) ('A' + i)), i, 4_900 + 1_000L * i, 25, 40));
        }
        ShowLayout layout = SeatPlan.layout(showId, "EUR", sections);
        Show show = new Show(showId, "~rehearsal", "~rehearsal", now + Duration.ofDays(1).toMillis(),
                new SaleWindow(now - Duration.ofHours(1).toMillis(), now + Duration.ofDays(1).toMillis()),
                new HoldPolicy(10, 10, Duration.ofMinutes(7).toMillis(), 5_000), 1, 48, layout);
        inventory.putFresh(show);
        privateShows.add(show);
        snapshots.get(show);
        lanes.set(lane, show);
        showsMade.incrementAndGet();
    }

    /**
     * The public reads a fan's first page makes, on a show of the catalog that is on sale now if there
     * is one (its blocks are the ones fans will have the grid load anyway; an old show's are not).
     */
    private List<String> readPaths() {
        List<String> paths = new ArrayList<>(List.of("/v1/events", "/observe/health/live"));
        long now = clock.getAsLong();
        publicShows.shows().stream().filter(s -> s.sale().isOpen(now)).min(Comparator.comparing(Show::showId)).ifPresent(s -> {
            paths.add("/v1/shows/" + s.showId());
            paths.add("/v1/shows/" + s.showId() + "/availability");
            paths.add("/v1/shows/" + s.showId() + "/seats");
        });
        return paths;
    }

    private void readLoop(HttpClient client, List<String> sharedPaths, int offset) {
        List<String> paths = new ArrayList<>(sharedPaths);
        int i = offset;
        while (!stop && !paths.isEmpty()) {
            String path = paths.get(i++ % paths.size());
            HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build();
            try {
                HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                if (response.statusCode() == 503) {
                    // a part this member serves only once it owns data (the search, while it is a lite
                    // member): answered, and not asked again, so the rehearsal does not fill the log
                    paths.remove(path);
                    read.incrementAndGet();
                } else if (response.statusCode() < 500) {
                    read.incrementAndGet();
                } else {
                    errors.incrementAndGet();
                }
            } catch (InterruptedException e) {
                return;
            } catch (java.io.IOException e) {
                if (stop) {
                    return; // the client was shut down under this request
                }
                errors.incrementAndGet();
            }
        }
    }
}
