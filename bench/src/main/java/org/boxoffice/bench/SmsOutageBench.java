package org.boxoffice.bench;

import com.fasterxml.jackson.databind.SerializationFeature;
import org.boxoffice.bench.check.BookingState;
import org.boxoffice.bench.check.ReferenceState;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.Latency;
import org.boxoffice.bench.load.LoadRun;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.report.SystemOutcome;
import org.boxoffice.bench.sms.SmsOutbox;
import org.boxoffice.bench.sms.SmsPhase;
import org.boxoffice.bench.sms.SmsReport;
import org.boxoffice.bench.sms.SmsStub;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * {@code ./boxoffice bench --sms-outage}: does a booking wait for the SMS channel? The service
 * sends tickets by SMS through its real HTTP adapter ({@code boxoffice.sms.provider=http}, shipped
 * timeout and retries) to an {@link SmsStub} on loopback; every buyer has a phone number, so every
 * booking writes a text message to the outbox. After the usual warm-up and an unmeasured sale with
 * checkouts (so the checkout path is compiled before the first phase), four closed-loop sales
 * with checkouts on fresh shows of the same size, same crowd, back to back:
 *
 * <ol>
 *   <li>{@code prompt}: the stub answers at once;
 *   <li>{@code slow}: it answers after {@link SmsStub#SLOW_ANSWER} until the sale and its checks have ended;
 *   <li>{@code failing}: it answers 503 until {@code --sms-recover-at} seconds into the sale (default: until the
 *       sale and its checks have ended);
 *   <li>{@code control}: it answers at once again, so the report shows how far the machine moved since the first.
 * </ol>
 *
 * Each sale is measured and checked as every sale is ({@link SystemRun#measure}); then the stub
 * answers at once again and the bench waits until the show's messages are delivered and marked
 * sent. At the end every message of the run is counted at the stub: each delivered once, none lost,
 * no booking told twice.
 */
final class SmsOutageBench {

    /** How long a phase waits after the recovery for its messages. */
    static final Duration DRAIN_LIMIT = Duration.ofMinutes(10);
    private static final long POLL_MS = 250;

    private final BenchOptions o;
    private final RunEnvironment env;
    private final Path out;

    SmsOutageBench(BenchOptions options) {
        this.o = options;
        this.env = new RunEnvironment(options);
        this.out = env.out();
    }

    int run() throws Exception {
        if (o.url != null) {
            throw new IllegalStateException("--sms-outage starts its own service, sending to its own stub; --url is not supported");
        }
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("boxoffice-sms-");
        Thread hook = new Thread(env::closeAll, "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Database db = env.openDatabase(work);
            String apiKey = "bench-sms-" + RunEnvironment.randomHex(16);
            SmsStub stub = new SmsStub(apiKey);
            env.resources().push(stub);
            ServiceLauncher.Started started = ServiceLauncher.start(o, db, work.resolve("service"), ServiceLauncher.aotCache(o),
                    out.resolve("service.log"), Map.of("BOXOFFICE_SMS_PROVIDER", "http",
                            "BOXOFFICE_SMS_HTTP_URL", stub.url().toString(), "BOXOFFICE_SMS_HTTP_APIKEY", apiKey));
            env.resources().push(started.process());
            SmsReport report = measure(started, db, stub);
            String summary = report.render();
            HttpResponse.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(out.resolve("results.json").toFile(), report.json());
            Files.writeString(out.resolve("summary.txt"), summary);
            System.out.println();
            System.out.println(summary);
            System.out.println("results: " + out.toAbsolutePath());
            long violations = report.phases().stream().mapToLong(p -> p.sale().violations()).sum();
            if (violations > 0 || !report.once().exact()) {
                System.out.println("\n!!!!!!!! " + (violations > 0 ? violations + " INVARIANT VIOLATION(S)" : "")
                        + (report.once().exact() ? "" : " TEXT MESSAGES LOST, GIVEN UP OR DELIVERED TWICE")
                        + ". See results.json. !!!!!!!!");
                return 1;
            }
            return 0;
        } finally {
            env.closeAll();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
            RunEnvironment.deleteRecursively(work);
        }
    }

    private SmsReport measure(ServiceLauncher.Started started, Database db, SmsStub stub) throws Exception {
        BoxofficeApi api = started.api();
        long pid = started.process().pid();
        String admin = api.adminToken();
        List<String> tokens = api.tokens(Buyer.accountIds(o.buyers()), o.connections);
        api.phones(tokens, phones(tokens.size()), o.connections);
        FlashSaleBench.log(String.format(Locale.ROOT, "%,d buyers, each with a token and a phone number", tokens.size()));
        // every phase's show is created before the warm-up: a busy machine's slow admin call then delays no phase
        List<Target> shows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            shows.add(BoxofficeRun.freshShow(api, admin, o, "boxoffice", o.seats));
        }
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed, shows.get(0).plan(), tokens);
        SystemRun system = new SystemRun(env, new BotFigures(env));

        system.warmUp("boxoffice", crowd, pid,
                () -> BoxofficeRun.freshShow(api, admin, o, "boxoffice-warmup", Math.min(o.seats, SystemRun.WARMUP_SEATS)));
        if (!o.warmup.isZero()) {
            FlashSaleBench.log("warming up the checkout for " + o.warmup.toSeconds() + " s (unmeasured sale with --pay, stub answering at once)");
            new LoadRun(BoxofficeRun.freshShow(api, admin, o, "boxoffice-warmup", Math.min(o.seats, SystemRun.WARMUP_SEATS)), crowd,
                    new LoadRun.Settings(o.connections, o.warmup, o.retries, o.bestAvailable, o.abandon, o.pay, o.readEvery,
                            o.seed, false)).run();
            awaitSettled(db, stub, null, System.currentTimeMillis());
        }
        List<SmsPhase> phases = new ArrayList<>();
        phases.add(phase("prompt", "answers at once", SmsStub.Mode.PROMPT, null, shows.get(0), crowd, system, db, stub, pid));
        phases.add(phase("slow", "answers after " + SmsStub.SLOW_ANSWER.toSeconds() + " s", SmsStub.Mode.SLOW, null,
                shows.get(1), crowd, system, db, stub, pid));
        phases.add(phase("failing", "503 until " + (o.smsRecoverAt == null ? "the sale's end" : o.smsRecoverAt + " s in"),
                SmsStub.Mode.FAILING, o.smsRecoverAt, shows.get(2), crowd, system, db, stub, pid));
        phases.add(phase(SmsReport.CONTROL, "answers at once again", SmsStub.Mode.PROMPT, null, shows.get(3), crowd, system,
                db, stub, pid));

        awaitSettled(db, stub, null, System.currentTimeMillis());
        SmsOutbox all;
        try (Connection c = db.connect()) {
            all = SmsOutbox.read(c, null);
        }
        Set<String> deliveredIds = new java.util.HashSet<>();
        stub.deliveries().forEach(d -> deliveredIds.add(d.messageId()));
        long deliveredOnce = all.messageIds().stream().filter(deliveredIds::contains).count();
        long unknown = deliveredIds.stream().filter(id -> !all.messageIds().contains(id)).count();
        SmsReport.Once once = new SmsReport.Once(all.queued(), deliveredOnce, unknown, stub.bookingsDeliveredTwice().size(),
                stub.calls().repeats(), all.givenUp());
        List<String> notes = new ArrayList<>();
        notes.add("the phases run in this order on one service; the first is the reference, and the control (the stub"
                + " answering at once again) shows how far the machine and the service's JIT moved meanwhile");
        notes.add("a slow answer (" + SmsStub.SLOW_ANSWER.toSeconds() + " s) meets the adapter's timeout (5 s): the stub delivers"
                + " the message on arrival, the adapter gives up waiting and sends again, and the repeat is answered 409");
        String setting = String.format(Locale.ROOT, "%,d seats, %,d buyers with a phone number each, %d connections, closed loop,"
                        + " --pay %.2f, --duration %d s per sale; the service's HTTP SMS adapter (shipped timeout 5 s, 2 retries,"
                        + " outbox polled every 1 s) to a stub on loopback", o.seats, o.buyers(), o.connections, o.pay,
                o.duration.toSeconds());
        return new SmsReport(o.shownCommand(), setting, phases, once, notes);
    }

    private SmsPhase phase(String name, String described, SmsStub.Mode mode, Integer recoverAt, Target target,
                           List<Buyer> crowd, SystemRun system, Database db, SmsStub stub, long pid) throws Exception {
        FlashSaleBench.log("phase " + name + ": the SMS stub " + described);
        db.checkpoint();
        SmsStub.Calls callsBefore = stub.calls();
        stub.mode(mode);
        long saleStart = System.currentTimeMillis();
        long[] recovered = {mode == SmsStub.Mode.PROMPT ? saleStart : 0};
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        ScheduledFuture<?> recovery = recoverAt == null ? null : timer.schedule(() -> {
            stub.mode(SmsStub.Mode.PROMPT);
            recovered[0] = System.currentTimeMillis();
            FlashSaleBench.log("phase " + name + ": the SMS stub answers at once again");
        }, saleStart + recoverAt * 1_000L - System.currentTimeMillis(), TimeUnit.MILLISECONDS);
        String showId = target.showId();
        SystemOutcome outcome;
        try {
            outcome = system.measure(target, crowd, null, null, db, pid, o.pay, () -> {
                try (Connection c = db.connect()) {
                    return ReferenceState.boxoffice(c, showId);
                }
            }, () -> {
                try (Connection c = db.connect()) {
                    return BookingState.load(c, showId);
                }
            }, ShowPlan.DEFAULT_GRACE_MS, () -> null);
            if (recovery != null) {
                recovery.get();
            } else if (mode != SmsStub.Mode.PROMPT) {
                stub.mode(SmsStub.Mode.PROMPT);
                recovered[0] = System.currentTimeMillis();
                FlashSaleBench.log("phase " + name + ": the sale is over; the SMS stub answers at once again");
            }
        } finally {
            timer.shutdownNow();
        }
        RunResult run = outcome.run();
        long saleEnd = saleStart + Math.round(run.elapsedSeconds() * 1_000);
        long from = Math.max(recovered[0], saleEnd);
        SmsOutbox atEnd;
        long sentAtEnd;
        try (Connection c = db.connect()) {
            atEnd = SmsOutbox.read(c, showId);
            sentAtEnd = SmsOutbox.sentBy(c, showId, saleEnd);
        }
        long deliveredAtEnd = atEnd.messageIds().stream().map(stub::delivery)
                .filter(d -> d != null && d.deliveredAt() <= saleEnd).count();
        Double allSent = awaitSettled(db, stub, showId, from);
        SmsOutbox after;
        try (Connection c = db.connect()) {
            after = SmsOutbox.read(c, showId);
        }
        List<SmsStub.Delivery> delivered = after.messageIds().stream().map(stub::delivery).filter(d -> d != null).toList();
        Double lastDelivery = delivered.size() < after.queued() ? null
                : Math.max(0, delivered.stream().mapToLong(SmsStub.Delivery::deliveredAt).max().orElse(from) - from) / 1e3;
        var checkouts = run.checkouts();
        SmsPhase.Sale sale = new SmsPhase.Sale(run.holdLatency(),
                checkouts == null ? new Latency(0, 0, 0, 0, 0, 0, 0) : checkouts.latency(), run.successes(),
                checkouts == null ? 0 : checkouts.allBooked(), run.elapsedSeconds(), run.soldOut(), outcome.violations());
        SmsPhase.Messages messages = new SmsPhase.Messages(after.queued(), sentAtEnd, deliveredAtEnd,
                (recovered[0] - saleStart) / 1e3, after.sent(), after.givenUp(), delivered.size(), after.attempts(),
                lastDelivery, allSent, stub.calls().minus(callsBefore));
        FlashSaleBench.log(String.format(Locale.ROOT, "phase %s: hold p50/p99 %.1f/%.1f ms, checkout p50/p99 %.1f/%.1f ms;"
                        + " %,d SMS, %,d sent and %,d delivered at the sale's end, all delivered %s after the recovery", name,
                sale.holds().p50(), sale.holds().p99(), sale.checkouts().p50(), sale.checkouts().p99(), messages.queued(),
                sentAtEnd, deliveredAtEnd, lastDelivery == null ? "never" : String.format(Locale.ROOT, "%.1f s", lastDelivery)));
        return new SmsPhase(name, described, sale, messages);
    }

    /**
     * Waits until the SMS of {@code showId} (every show's, if null) are all sent or given up and each
     * sent one was delivered at the stub; answers the seconds from {@code fromMillis} until then, or
     * null when {@link #DRAIN_LIMIT} passed first.
     */
    private static Double awaitSettled(Database db, SmsStub stub, String showId, long fromMillis) throws Exception {
        long deadline = System.currentTimeMillis() + DRAIN_LIMIT.toMillis();
        while (true) {
            SmsOutbox box;
            try (Connection c = db.connect()) {
                box = SmsOutbox.read(c, showId);
            }
            long now = System.currentTimeMillis();
            if (box.settled() && box.messageIds().stream().allMatch(id -> stub.delivery(id) != null)) {
                return Math.max(0, now - fromMillis) / 1e3;
            }
            if (now > deadline) {
                FlashSaleBench.log(String.format(Locale.ROOT, "SMS of %s not settled within %d s: %,d queued, %,d sent, %,d given up",
                        showId == null ? "the run" : showId, DRAIN_LIMIT.toSeconds(), box.queued(), box.sent(), box.givenUp()));
                return null;
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** One E.164 number per buyer, all distinct (a German mobile range). */
    static List<String> phones(int count) {
        return IntStream.range(0, count).mapToObj(i -> String.format(Locale.ROOT, "+49151%08d", i)).toList();
    }
}
