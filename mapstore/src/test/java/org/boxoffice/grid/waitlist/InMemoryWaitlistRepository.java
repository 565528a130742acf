package org.boxoffice.grid.waitlist;

import org.boxoffice.domain.DuplicateWaitlistEntryException;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.domain.WaitlistEntry.State;
import org.boxoffice.domain.WaitlistRepository;
import org.boxoffice.domain.WaitlistStanding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The waitlist referee's rules in memory, for grid tests that need real members but not a database. */
final class InMemoryWaitlistRepository implements WaitlistRepository {

    static final class Row {
        final WaitlistEntry entry;
        long itemId;
        State state = State.WAITING;
        String holdId;
        List<String> seatIds = List.of();
        long expiresAt;
        long updatedAt;

        Row(WaitlistEntry entry, long itemId) {
            this.entry = entry;
            this.itemId = itemId;
            this.updatedAt = entry.joinedAt();
        }
    }

    private final List<Row> rows = new ArrayList<>();

    synchronized Optional<Row> row(long entryId) {
        return rows.stream().filter(r -> r.entry.entryId() == entryId).findFirst();
    }

    @Override
    public synchronized void enqueue(long itemId, WaitlistEntry entry) {
        Optional<Row> existing = row(entry.entryId());
        if (existing.isPresent()) {
            if (!existing.get().state.inLine()) {
                throw new IllegalStateException("entry left the line");
            }
            existing.get().itemId = itemId;
            return;
        }
        if (rows.stream().anyMatch(r -> r.state.live() && r.entry.showId().equals(entry.showId())
                && r.entry.accountId().equals(entry.accountId()))) {
            throw new DuplicateWaitlistEntryException("already waiting");
        }
        rows.add(new Row(entry, itemId));
    }

    @Override
    public synchronized Map<String, Integer> lineLengths() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        rows.stream().filter(r -> r.state.inLine()).forEach(r -> out.merge(r.entry.showId(), 1, Integer::sum));
        return out;
    }

    @Override
    public synchronized void dequeue(String showId, long itemId) {
        inLine(showId).stream().filter(r -> r.itemId == itemId).forEach(r -> r.state = State.REMOVED);
    }

    @Override
    public synchronized Optional<WaitlistEntry> queued(String showId, long itemId) {
        return rows.stream().filter(r -> r.entry.showId().equals(showId) && r.itemId == itemId)
                .max(Comparator.comparing((Row r) -> r.state.inLine()).thenComparingLong(r -> r.entry.joinedAt()))
                .map(r -> r.entry);
    }

    @Override
    public synchronized Map<Long, WaitlistEntry> queued(String showId, Collection<Long> itemIds) {
        Map<Long, WaitlistEntry> out = new LinkedHashMap<>();
        itemIds.forEach(id -> queued(showId, id).ifPresent(e -> out.put(id, e)));
        return out;
    }

    @Override
    public synchronized List<Long> queuedItems(String showId) {
        return inLine(showId).stream().map(r -> r.itemId).toList();
    }

    private List<Row> inLine(String showId) {
        return rows.stream().filter(r -> r.entry.showId().equals(showId) && r.state.inLine())
                .sorted(Comparator.comparingLong(r -> r.itemId)).toList();
    }

    @Override
    public synchronized List<WaitlistEntry> line(String showId) {
        return inLine(showId).stream().map(r -> r.entry).toList();
    }

    private WaitlistStanding standing(Row r) {
        long position = r.state.inLine() ? inLine(r.entry.showId()).indexOf(r) + 1 : 0;
        return new WaitlistStanding(r.entry, r.state, position, r.holdId, r.seatIds, r.expiresAt, null, r.updatedAt);
    }

    @Override
    public synchronized Optional<WaitlistStanding> standing(String showId, String accountId) {
        return rows.stream().filter(r -> r.entry.showId().equals(showId) && r.entry.accountId().equals(accountId))
                .max(Comparator.comparing((Row r) -> r.state.live()).thenComparingLong(r -> r.entry.joinedAt()))
                .map(this::standing);
    }

    @Override
    public synchronized List<WaitlistStanding> offers(String showId) {
        return rows.stream().filter(r -> r.entry.showId().equals(showId)
                && (r.state == State.OFFERING || r.state == State.OFFERED)).map(this::standing).toList();
    }

    @Override
    public synchronized List<WaitlistStanding> offersOf(String accountId) {
        return rows.stream().filter(r -> r.entry.accountId().equals(accountId) && r.state == State.OFFERED)
                .map(this::standing).toList();
    }

    @Override
    public synchronized List<String> showsWithLiveEntries() {
        return rows.stream().filter(r -> r.state.live()).map(r -> r.entry.showId()).distinct().toList();
    }

    @Override
    public synchronized boolean beginOffer(long entryId, String holdId, long now) {
        return move(entryId, State.WAITING, null, r -> {
            r.state = State.OFFERING;
            r.holdId = holdId;
            r.updatedAt = now;
        });
    }

    @Override
    public synchronized boolean offered(long entryId, String holdId, List<String> seatIds, long expiresAt, long now) {
        return move(entryId, State.OFFERING, holdId, r -> {
            r.state = State.OFFERED;
            r.seatIds = List.copyOf(seatIds);
            r.expiresAt = expiresAt;
            r.updatedAt = now;
        });
    }

    @Override
    public synchronized boolean abandonOffer(long entryId, String holdId, long now) {
        return move(entryId, State.OFFERING, holdId, r -> {
            r.state = State.WAITING;
            r.holdId = null;
            r.updatedAt = now;
        });
    }

    @Override
    public synchronized boolean end(long entryId, Collection<State> from, State to, String reason, long now) {
        Optional<Row> r = row(entryId);
        if (r.isEmpty() || !from.contains(r.get().state)) {
            return false;
        }
        r.get().state = to;
        r.get().updatedAt = now;
        return true;
    }

    @Override
    public synchronized int close(String showId, long now) {
        List<Row> line = inLine(showId);
        line.forEach(r -> r.state = State.CLOSED);
        return line.size();
    }

    private boolean move(long entryId, State from, String holdId, java.util.function.Consumer<Row> change) {
        Optional<Row> r = row(entryId);
        if (r.isEmpty() || r.get().state != from || (holdId != null && !holdId.equals(r.get().holdId))) {
            return false;
        }
        change.accept(r.get());
        return true;
    }
}
