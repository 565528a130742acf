package org.boxoffice.mapstore;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads by key that many threads ask for at once, shared: the map loader's reads of many
 * partitions, each waiting on its own thread, become one query for all their keys.
 *
 * <p>A caller of {@link #load} queues its key and waits. The reader thread takes whatever is queued
 * (up to {@code maxBatch}), reads it in one query and wakes each caller with its own value: a read
 * that ran after the caller asked, as a read of its own would be. If the query fails, every caller
 * of that batch gets the failure (a read changes nothing, so the grid simply asks again later).
 *
 * <p>What it saves is the fixed cost of a statement (measured in {@code pgbench} for the allowance
 * read on PostgreSQL 15: 57 µs of the server's CPU for one key, 68 µs for four, 84 µs for eight),
 * which in an on-sale is most of it: each new buyer's first claim reads its allowance. Under no
 * load a batch is one key and costs a direct read plus a hand-over between threads. Thread-safe;
 * the reader is a daemon thread started on first use and stopped by {@link #close}.
 *
 * <p>General admission's stripe changes share their commits through it too
 * ({@link PostgresAdmissionRepository#apply}): there a key is a change to apply and its value how it
 * ended; the source answers each change's own outcome and throws only when the connection failed,
 * when no change's fate is known.
 */
final class GroupLoad<K, V> implements AutoCloseable {

    /** Reads many keys in one query; the answer has a value for every key asked. */
    @FunctionalInterface
    interface Source<K, V> {
        Map<K, V> loadMany(List<K> keys);
    }

    private static final Logger LOG = Logger.getLogger(GroupLoad.class.getName());

    private record Pending<K, V>(K key, CompletableFuture<V> done) {
    }

    private final String name;
    private final Source<K, V> source;
    private final int maxBatch;
    private final LinkedBlockingQueue<Pending<K, V>> queue = new LinkedBlockingQueue<>();
    private final LongAdder batches = new LongAdder();
    private final LongAdder keys = new LongAdder();
    private final Object lifecycle = new Object();
    private Thread reader;
    private volatile boolean started;
    private volatile boolean closed;

    GroupLoad(String name, Source<K, V> source, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be positive");
        }
        this.name = name;
        this.source = source;
        this.maxBatch = maxBatch;
    }

    /** Reads {@code key} together with whatever else is asked meanwhile. */
    V load(K key) {
        if (closed) {
            throw new DatabaseException("the referee is closed", null);
        }
        start();
        Pending<K, V> pending = new Pending<>(key, new CompletableFuture<>());
        return Handover.queueAndWait(queue, pending, pending.done(), () -> closed, () -> "reading " + key);
    }

    /** Queries run and keys read in them so far. */
    record Stats(long batches, long keys) {
    }

    Stats stats() {
        return new Stats(batches.sum(), keys.sum());
    }

    /** Callers waiting for the next read. */
    int queued() {
        return queue.size();
    }

    private void start() {
        if (started) {
            return;
        }
        synchronized (lifecycle) {
            if (started || closed) {
                return;
            }
            reader = new Thread(this::readLoop, name);
            reader.setDaemon(true);
            reader.start();
            started = true;
        }
    }

    private void readLoop() {
        List<Pending<K, V>> batch = new ArrayList<>(maxBatch);
        while (!closed) {
            try {
                Pending<K, V> first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                read(batch);
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
            } catch (RuntimeException | Error e) {
                // read() completes every pending it took; this is only a last guard for the thread
                LOG.log(Level.SEVERE, name + " failed unexpectedly", e);
                batch.forEach(p -> p.done().completeExceptionally(new DatabaseException(name + " failed", e)));
            } finally {
                batch.clear();
            }
        }
    }

    private void read(List<Pending<K, V>> batch) {
        LinkedHashSet<K> asked = new LinkedHashSet<>();
        batch.forEach(p -> asked.add(p.key()));
        batches.increment();
        keys.add(asked.size());
        Map<K, V> values;
        try {
            values = source.loadMany(List.copyOf(asked));
        } catch (RuntimeException e) {
            batch.forEach(p -> p.done().completeExceptionally(e));
            return;
        }
        for (Pending<K, V> p : batch) {
            V value = values.get(p.key());
            if (value == null) {
                p.done().completeExceptionally(new DatabaseException(name + " returned nothing for " + p.key(), null));
            } else {
                p.done().complete(value);
            }
        }
    }

    /** Stops the reader; keys still queued are failed (their loads fail, the grid asks again). */
    @Override
    public void close() {
        closed = true;
        Thread t;
        synchronized (lifecycle) {
            t = reader;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Pending<K, V> left;
        while ((left = queue.poll()) != null) {
            left.done().completeExceptionally(new DatabaseException("the referee closed before reading " + left.key(), null));
        }
    }
}
