package org.boxoffice.grid;

import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.StaleInventoryException;
import org.boxoffice.domain.Transition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A referee in memory with the same conditional-write contract as the PostgreSQL one: a
 * transition applies only if every seat still has its expected version. For grid tests that need
 * real members but not a database.
 */
public final class InMemoryInventoryRepository implements InventoryRepository {

    private final Map<BlockId, SeatBlock> blocks = new ConcurrentHashMap<>();
    public final AtomicInteger applied = new AtomicInteger();
    public final AtomicInteger refused = new AtomicInteger();
    /** Blocks read one by one or in batches, whoever asked. */
    public final AtomicInteger loads = new AtomicInteger();
    /** Stores waiting for {@link #resumeStores} now. */
    public final AtomicInteger storesWaiting = new AtomicInteger();

    public void create(String showId, int blockId, int seats) {
        blocks.put(new BlockId(showId, blockId), SeatBlock.fresh(showId, blockId, seats));
    }

    /** What the referee holds for a block (its own copy, no transition). */
    public SeatBlock stored(String showId, int blockId) {
        return blocks.get(new BlockId(showId, blockId));
    }

    /** Changes a seat behind the grid's back, as an operator or another system might. */
    public synchronized void tamper(String showId, int blockId, int seat, SeatState state) {
        BlockId id = new BlockId(showId, blockId);
        SeatBlock b = blocks.get(id);
        SeatState[] states = new SeatState[b.size()];
        int[] versions = b.versionArray().clone();
        for (int i = 0; i < states.length; i++) {
            states[i] = b.state(i);
        }
        states[seat] = state;
        versions[seat]++;
        blocks.put(id, SeatBlock.restore(showId, blockId, states, versions));
    }

    private volatile java.util.concurrent.CountDownLatch paused;

    /** Makes every store wait until {@link #resumeStores} (a claim held in flight, for a test). */
    public void pauseStores() {
        paused = new java.util.concurrent.CountDownLatch(1);
    }

    public void resumeStores() {
        java.util.concurrent.CountDownLatch p = paused;
        paused = null;
        if (p != null) {
            p.countDown();
        }
    }

    @Override
    public void apply(SeatBlock next) {
        java.util.concurrent.CountDownLatch p = paused;
        if (p != null && next.transition() != null) {
            storesWaiting.incrementAndGet();
            try {
                p.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                storesWaiting.decrementAndGet();
            }
        }
        applyNow(next);
    }

    private synchronized void applyNow(SeatBlock next) {
        if (next.transitions().isEmpty()) {
            return;
        }
        BlockId id = new BlockId(next.showId(), next.blockId());
        SeatBlock current = blocks.get(id);
        // every transition of the store, or none (a combined claim carries several)
        for (Transition t : next.transitions()) {
            for (int k = 0; k < t.seats().length; k++) {
                if (current.version(t.seats()[k]) != t.expectedVersions()[k]) {
                    refused.incrementAndGet();
                    throw new StaleInventoryException("seat " + t.seats()[k] + " of " + id + " moved");
                }
            }
        }
        // only the transitions' seats move, as in PostgreSQL: the rest keep the referee's own state
        SeatState[] states = new SeatState[next.size()];
        int[] versions = current.versionArray().clone();
        for (int i = 0; i < states.length; i++) {
            states[i] = current.state(i);
        }
        for (Transition t : next.transitions()) {
            for (int seat : t.seats()) {
                states[seat] = next.state(seat);
                versions[seat] = next.version(seat);
            }
        }
        blocks.put(id, SeatBlock.restore(next.showId(), next.blockId(), states, versions));
        applied.addAndGet(next.transitions().size());
    }

    @Override
    public Optional<SeatBlock> load(String showId, int blockId) {
        loads.incrementAndGet();
        return Optional.ofNullable(blocks.get(new BlockId(showId, blockId)));
    }

    @Override
    public Map<Integer, Long> versionSums(String showId) {
        Map<Integer, Long> sums = new java.util.HashMap<>();
        blocks.forEach((id, block) -> {
            if (id.showId().equals(showId)) {
                sums.put(id.blockId(), java.util.Arrays.stream(block.versionArray()).asLongStream().sum());
            }
        });
        return sums;
    }

    @Override
    public Optional<HoldRecord> findHold(String holdId) {
        return Optional.empty();
    }

    @Override
    public List<BlockId> blocksWithHoldsLapsedBefore(long lapsedBefore) {
        List<BlockId> out = new ArrayList<>();
        blocks.forEach((id, b) -> {
            if (b.nextExpiry() < lapsedBefore) {
                out.add(id);
            }
        });
        return out;
    }

    @Override
    public List<org.boxoffice.domain.SeatEvent> history(String showId, String seatId) {
        return List.of();
    }

    @Override
    public AccountAllowance allowance(String showId, String accountId) {
        return AccountAllowance.empty();
    }
}
