package org.boxoffice.app.ops;

import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatEvent;
import org.boxoffice.domain.StaleInventoryException;

import java.util.List;
import java.util.Optional;

/**
 * Times every write-through store and counts the failed ones (the referee refused a stale copy, or
 * PostgreSQL failed); everything else passes straight through.
 */
public final class MeteredInventoryRepository implements InventoryRepository {

    private final InventoryRepository delegate;
    private final OpsMetrics metrics;

    public MeteredInventoryRepository(InventoryRepository delegate, OpsMetrics metrics) {
        this.delegate = delegate;
        this.metrics = metrics;
    }

    @Override
    public void apply(SeatBlock next) {
        long start = System.nanoTime();
        try {
            delegate.apply(next);
        } catch (RuntimeException e) {
            metrics.count(OpsMetrics.STORE_FAILURES, e instanceof StaleInventoryException ? "stale" : "error");
            throw e;
        } finally {
            metrics.store(System.nanoTime() - start);
        }
    }

    @Override
    public Optional<SeatBlock> load(String showId, int blockId) {
        return delegate.load(showId, blockId);
    }

    @Override
    public Optional<HoldRecord> findHold(String holdId) {
        return delegate.findHold(holdId);
    }

    @Override
    public List<BlockId> blocksWithHoldsLapsedBefore(long lapsedBefore) {
        return delegate.blocksWithHoldsLapsedBefore(lapsedBefore);
    }

    @Override
    public AccountAllowance allowance(String showId, String accountId) {
        return delegate.allowance(showId, accountId);
    }

    @Override
    public java.util.Map<Integer, Long> versionSums(String showId) {
        return delegate.versionSums(showId);
    }

    @Override
    public List<SeatEvent> history(String showId, String seatId) {
        return delegate.history(showId, seatId);
    }
}
