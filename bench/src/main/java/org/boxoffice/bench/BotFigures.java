package org.boxoffice.bench;

import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.load.BotSwarm;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.LoadRun;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.report.SystemOutcome;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The bots of {@code --bots}: the swarm and its accounts, what it did during the measured sale, and
 * after the sale the seats per account and what a bot request costs the service against a plain one.
 */
final class BotFigures {

    /** The bots-only phases after the sale that price a bot request and a plain one. */
    private static final Duration BOT_PRICE_PHASE = Duration.ofSeconds(5);

    private final BenchOptions o;
    private final Path out;
    private final List<String> notes;
    private BotSwarm swarm;
    private int botAccounts;
    private BotSwarm.Report botsDuringSale;

    BotFigures(RunEnvironment env) {
        this.o = env.options();
        this.out = env.out();
        this.notes = env.notes();
    }

    /** Whether {@link #withBots} made a swarm. */
    boolean active() {
        return swarm != null;
    }

    BotSwarm swarm() {
        return swarm;
    }

    int accounts() {
        return botAccounts;
    }

    int controllers() {
        return swarm.controllers();
    }

    /** The leads joined the waiting room with the crowd: their tickets are the swarm's from now on. */
    void joined(LoadRun.Room room) {
        if (swarm != null) {
            swarm = swarm.withLeadTickets(room);
        }
    }

    /** What the swarm did during the measured sale. */
    void duringSale(BotSwarm.Report report) {
        botsDuringSale = report;
    }

    /** Bot requests a second beside the crowd's offered hold attempts: the crowd's share that are bots. */
    double rate(double humanRate) {
        return humanRate * o.bots / (1 - o.bots);
    }

    /**
     * Makes the bots of {@code --bots}: as many accounts as make that share of the whole crowd, in
     * controllers of {@link BotSwarm#ACCOUNTS_PER_CONTROLLER}, each from one address. Each controller's
     * lead joins the room with the crowd (solving its challenge honestly) and buys like a fan; the
     * others only cheat. Returns the crowd with the leads.
     */
    List<Buyer> withBots(BoxofficeApi api, Target target, List<Buyer> humans) throws InterruptedException {
        botAccounts = (int) Math.round(humans.size() * o.bots / (1 - o.bots));
        int controllers = Math.max(1, botAccounts / BotSwarm.ACCOUNTS_PER_CONTROLLER);
        int perController = Math.max(3, botAccounts / controllers);
        botAccounts = controllers * perController;
        List<String> ids = new ArrayList<>();
        for (int c = 0; c < controllers; c++) {
            for (int a = 0; a < perController; a++) {
                ids.add("bot-" + c + "-" + a);
            }
        }
        long t0 = System.nanoTime();
        List<String> tokens = api.tokens(ids, o.connections);
        FlashSaleBench.log(String.format(Locale.ROOT, "%,d bot tokens in %.1f s", tokens.size(), (System.nanoTime() - t0) / 1e9));
        List<BotSwarm.Controller> list = new ArrayList<>();
        List<Buyer> crowd = new ArrayList<>(humans);
        for (int c = 0; c < controllers; c++) {
            int first = c * perController;
            list.add(new BotSwarm.Controller("172.16." + (c >> 8) + "." + (c & 255), ids.subList(first, first + perController),
                    tokens.subList(first, first + perController), null));
        }
        // each lead joins among the crowd (spread through it, as the crowd joins in its order), asking
        // for as many seats as a scalper wants in the best section
        for (int c = controllers - 1; c >= 0; c--) {
            int first = c * perController;
            crowd.add((int) ((long) humans.size() * c / controllers),
                    new Buyer(ids.get(first), tokens.get(first), 4, target.plan().sectionsByRank().get(0).name()));
        }
        swarm = new BotSwarm(target, list, o.seed);
        return crowd;
    }

    /** Seats per account, the bots' refusals by reason, and what a bot request costs the service against a plain one. */
    void report(SystemOutcome outcome, List<Buyer> crowd, Database db, long pid, String quietShow) throws Exception {
        long humans = crowd.stream().filter(b -> !b.accountId().startsWith("bot-")).count();
        long humanSeats = 0;
        long botSeats = 0;
        long leadSeats = 0;
        for (var a : outcome.run().acked()) {
            if (a.accountId().startsWith("bot-")) {
                leadSeats += a.seatIds().size();
            } else {
                humanSeats += a.seatIds().size();
            }
        }
        long cheatSeats = botsDuringSale == null ? 0 : botsDuringSale.seats();
        botSeats = leadSeats + cheatSeats;
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("humanAccounts", humans);
        figures.put("botAccounts", botAccounts);
        figures.put("controllers", swarm.controllers());
        figures.put("seatsPerHumanAccount", humans == 0 ? 0 : (double) humanSeats / humans);
        figures.put("seatsPerBotAccount", botAccounts == 0 ? 0 : (double) botSeats / botAccounts);
        figures.put("seatsOfBotLeadsJoiningHonestly", leadSeats);
        figures.put("seatsOfBotsSkippingReplayingOrSharing", cheatSeats);
        figures.put("holdP99Millis", outcome.run().holdLatency().p99());
        if (botsDuringSale != null) {
            figures.put("botRequestsDuringSale", botsDuringSale.requests());
            figures.put("botOutcomesDuringSale", botsDuringSale.outcomes());
        }
        if (pid > 0) {
            // after the sale, alone on the service: what each kind of request costs its CPU, at the bots' pace
            double rate = rate(SystemRun.measuredRate(o, null));
            CpuMeter meter = SystemRun.cpuMeter(db, pid);
            Map<String, Object> prices = new LinkedHashMap<>();
            for (BotSwarm.Mix mix : BotSwarm.Mix.values()) {
                CpuMeter.Sample s0 = meter.sample();
                BotSwarm.Report r = swarm.price(mix, rate, BOT_PRICE_PHASE, quietShow);
                CpuMeter.Sample s1 = meter.sample();
                long micros = Math.round(CpuMeter.between(s0, s1).getOrDefault("server", 0.0) * 1e6 / Math.max(1, r.requests()));
                Map<String, Object> price = new LinkedHashMap<>();
                price.put("requests", r.requests());
                price.put("serverMicrosPerRequest", micros);
                price.put("outcomes", r.outcomes());
                prices.put(mix.name(), price);
                FlashSaleBench.log(String.format(Locale.ROOT, "bots alone, %s: %,d requests in %.0f s, %d us of server CPU each; %s", mix,
                        r.requests(), r.seconds(), micros, r.outcomes()));
            }
            figures.put("serverCpuAloneAfterTheSale", prices);
        }
        FlashSaleBench.log(String.format(Locale.ROOT, "bots: seats per account: humans %.3f, bots %.3f (leads who joined honestly: %,d seats;"
                        + " skipping, replaying or sharing: %,d seats)", figures.get("seatsPerHumanAccount"),
                figures.get("seatsPerBotAccount"), leadSeats, cheatSeats));
        if (botsDuringSale != null) {
            FlashSaleBench.log("bots: their requests during the sale by outcome: " + botsDuringSale.outcomes());
        }
        notes.add("bots (--bots " + o.bots + "): " + figures);
        Files.writeString(out.resolve("bots.json"), new com.fasterxml.jackson.databind.ObjectMapper()
                .writerWithDefaultPrettyPrinter().writeValueAsString(figures));
    }
}
