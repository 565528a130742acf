package org.boxoffice.bench.probe;

import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;

/**
 * The referee's group commit as the service reports it on its metrics endpoint: batches,
 * transitions in them, batches applied one transition at a time, time spent committing. Read
 * before and after a measured run; the difference is the run's own.
 *
 * @param batches     group-commit batches since the service started
 * @param transitions seat transitions in them
 * @param oneByOne    batches PostgreSQL applied one transition at a time (one was stale or replayed)
 * @param commitSeconds time spent applying and committing batches
 * @param allowanceQueries allowance reads of the map loader: queries (reads asked for at once share one)
 * @param allowanceAccounts accounts read in them
 * @param claimCalls  grid calls that carried claims on a block (claims queued on one block share one)
 * @param claims      claims on a block in them
 * @param stages      where holds past the seat map spent their time, stage by stage
 * @param stores      the referee's stores (one block's change each), arrival to commit, by the size of their batch
 */
public record RefereeStats(double batches, double transitions, double oneByOne, double commitSeconds,
                           double allowanceQueries, double allowanceAccounts, double claimCalls, double claims,
                           HoldStages stages, HoldStages stores) {

    private static final String PREFIX = "boxoffice_referee_";
    private static final String CLAIMS_PREFIX = "boxoffice_inventory_";

    /**
     * Reads the service's metrics every {@code every} on a daemon thread until closed, as a
     * monitoring system scraping it would. The bench scrapes once right before a measured run (the
     * "before" counters); a service whose metrics endpoint was never asked before compiled that
     * request's paths then, and deoptimized the request path it shares with holds (the request
     * guard, the routing, the headers): recompiled during the sell-out's burst, 0.8-1.3 CPU-s of
     * JIT in the measured run. Scraping during the warm-up, as Prometheus does all along in
     * production, compiles them before the clock starts.
     */
    public static AutoCloseable scrapeEvery(String host, int port, java.time.Duration every) {
        Thread t = Thread.ofPlatform().daemon().name("bench-metrics-scraper").start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    read(host, port);
                    Thread.sleep(every.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return () -> {
            t.interrupt();
            t.join(5_000);
        };
    }

    /** Reads the service's metrics; null when it exports no group-commit figures. */
    public static RefereeStats read(String host, int port) {
        try (HttpConnection c = new HttpConnection(host, port)) {
            HttpResponse r = c.get("/observe/metrics", null);
            if (r.status() != 200) {
                return null;
            }
            return parse(r.text());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The group-commit samples of a Prometheus text exposition; null if it has none. */
    static RefereeStats parse(String exposition) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : exposition.split("\n")) {
            String prefix = line.startsWith(PREFIX) ? PREFIX : line.startsWith(CLAIMS_PREFIX) ? CLAIMS_PREFIX : null;
            if (prefix == null) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String name = line.substring(prefix.length(), space).replaceAll("\\{.*}", "").replaceAll("_total$", "");
            try {
                samples.merge(name, Double.parseDouble(line.substring(space + 1)), Double::sum);
            } catch (NumberFormatException ignored) {
                // not a sample of ours
            }
        }
        // the batch-size histogram counts the batches and sums their transitions; the commit-time
        // histogram sums their time
        Double batches = samples.get("batch_size_count");
        Double transitions = samples.get("batch_size_sum");
        if (batches == null || transitions == null) {
            return null;
        }
        return new RefereeStats(batches, transitions, samples.getOrDefault("one_by_one_batches", 0.0),
                samples.getOrDefault("commit_seconds_sum", 0.0), samples.getOrDefault("allowance_queries", 0.0),
                samples.getOrDefault("allowance_accounts", 0.0), samples.getOrDefault("claim_calls", 0.0),
                samples.getOrDefault("claims", 0.0), HoldStages.parse(exposition), HoldStages.storesByBatch(exposition));
    }

    /** This reading and {@code other}'s added up: the counters of several members. */
    public RefereeStats plus(RefereeStats other) {
        return new RefereeStats(batches + other.batches, transitions + other.transitions, oneByOne + other.oneByOne,
                commitSeconds + other.commitSeconds, allowanceQueries + other.allowanceQueries,
                allowanceAccounts + other.allowanceAccounts, claimCalls + other.claimCalls, claims + other.claims,
                stages.plus(other.stages), stores.plus(other.stores));
    }

    /** What happened between {@code before} and this reading, in words. */
    public String since(RefereeStats before) {
        double b = batches - before.batches;
        double t = transitions - before.transitions;
        if (b <= 0) {
            return "referee group commit in the measured run: no batches";
        }
        String text = String.format(Locale.ROOT,
                "referee group commit in the measured run: %,.0f transitions in %,.0f batches (%.1f a batch), "
                        + "%.1f ms a batch to apply and commit, %,.0f applied one by one",
                t, b, t / b, 1000 * (commitSeconds - before.commitSeconds) / b, oneByOne - before.oneByOne);
        double accounts = allowanceAccounts - before.allowanceAccounts;
        double queries = allowanceQueries - before.allowanceQueries;
        if (queries > 0) {
            text += String.format(Locale.ROOT, "; allowances of %,.0f accounts read in %,.0f queries (%.1f a query)",
                    accounts, queries, accounts / queries);
        }
        double calls = claimCalls - before.claimCalls;
        double sent = claims - before.claims;
        if (calls > 0) {
            text += String.format(Locale.ROOT, "; claims on a block: %,.0f in %,.0f grid calls (%.2f a call)", sent, calls, sent / calls);
        }
        String byBatch = stores.storesSince(before.stores);
        text = byBatch.isEmpty() ? text : text + "; " + byBatch;
        String byStage = stages.since(before.stages);
        return byStage.isEmpty() ? text : text + "; " + byStage;
    }
}
