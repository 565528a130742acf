package org.boxoffice.grid.catalog;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryLoadedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import com.hazelcast.map.listener.MapEvictedListener;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A counter that moves whenever the {@code catalog_events} map changes anywhere in the cluster, so
 * a member can keep answers built from the catalog until it moves. One entry listener (without
 * values) on the map; it also moves when a member joins or leaves, because entry events are best
 * effort and can be lost while partitions move. Callers that cannot afford a lost event keep their
 * answers for a bounded time as well.
 *
 * <p>Thread-safe. Events arrive on Hazelcast's event threads; {@link #version()} is a volatile read.
 */
public final class CatalogChanges implements AutoCloseable {

    private final HazelcastInstance hz;
    private final AtomicLong version = new AtomicLong();
    private final UUID entries;
    private final UUID members;

    public CatalogChanges(HazelcastInstance hz) {
        this.hz = hz;
        IMap<String, EventListing> map = hz.getMap(CatalogSearch.MAP);
        this.entries = map.addEntryListener(new Listener(), false);
        this.members = org.boxoffice.grid.Membership.onDataMemberChange(hz.getCluster(), this::changed);
    }

    /** Moves (never backwards) with every change heard; equal values mean nothing was heard in between. */
    public long version() {
        return version.get();
    }

    /** Counts a change this member made or learned of some other way. */
    public void changed() {
        version.incrementAndGet();
    }

    private final class Listener implements EntryAddedListener<String, EventListing>,
            EntryUpdatedListener<String, EventListing>, EntryRemovedListener<String, EventListing>,
            EntryEvictedListener<String, EventListing>, EntryExpiredListener<String, EventListing>,
            EntryLoadedListener<String, EventListing>, EntryMergedListener<String, EventListing>,
            MapClearedListener, MapEvictedListener {

        @Override
        public void entryAdded(EntryEvent<String, EventListing> event) {
            changed();
        }

        @Override
        public void entryUpdated(EntryEvent<String, EventListing> event) {
            changed();
        }

        @Override
        public void entryRemoved(EntryEvent<String, EventListing> event) {
            changed();
        }

        @Override
        public void entryEvicted(EntryEvent<String, EventListing> event) {
            changed();
        }

        @Override
        public void entryExpired(EntryEvent<String, EventListing> event) {
            changed();
        }

        @Override
        public void entryLoaded(EntryEvent<String, EventListing> event) {
            changed();
        }

        @Override
        public void entryMerged(EntryEvent<String, EventListing> event) {
            changed();
        }

        @Override
        public void mapCleared(MapEvent event) {
            changed();
        }

        @Override
        public void mapEvicted(MapEvent event) {
            changed();
        }
    }

    @Override
    public void close() {
        if (hz.getLifecycleService().isRunning()) {
            hz.getMap(CatalogSearch.MAP).removeEntryListener(entries);
            hz.getCluster().removeMembershipListener(members);
        }
    }
}
