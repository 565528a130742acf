package org.boxoffice.app.catalog;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.topic.ITopic;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.Inventory;
import org.boxoffice.grid.ShowSnapshots;
import org.boxoffice.grid.catalog.EventListing;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A show just saved, made known to the cluster: its event's listing in the search map, every
 * member's directory (over a topic: each member reads the show from PostgreSQL), and its seats
 * loaded warm. Built once per member, which from then on hears every member's announcements.
 */
public final class ShowAnnouncements {

    private static final Logger LOG = Logger.getLogger(ShowAnnouncements.class.getName());
    private static final String TOPIC = "catalog-shows";

    private final HazelcastInstance hz;
    private final ShowDirectory directory;
    private final Inventory inventory;
    private final ShowSnapshots snapshots;
    private final ITopic<String> topic;

    public ShowAnnouncements(HazelcastInstance hz, CatalogRepository catalog, ShowDirectory directory, Inventory inventory,
                             ShowSnapshots snapshots) {
        this.hz = hz;
        this.directory = directory;
        this.inventory = inventory;
        this.snapshots = snapshots;
        this.topic = hz.getTopic(TOPIC);
        topic.addMessageListener(m -> catalog.show(m.getMessageObject()).ifPresent(directory::add));
    }

    /** Announces {@code show}, just saved; returns once this member has its seats loaded and its seat map built. */
    public void announce(Show show) {
        IMap<String, EventListing> listings = hz.getMap(GridMaps.CATALOG_EVENTS);
        directory.event(show.eventId()).ifPresent(event -> directory.venue(event.venueId()).ifPresent(venue ->
                listings.set(event.eventId(), EventListing.of(event, venue, directory.showsOf(event.eventId())))));
        topic.publish(show.showId());
        // a new show goes on sale warm: its blocks are loaded into the grid, onto their owners and
        // their backups (each from its seat rows, on its own partition), and this member's snapshot
        // is built before the creation is answered, so the first buyers of an on-sale do not wait
        // behind the loads, and no backup stops a partition thread to load a block at its first claim
        try {
            inventory.preload(show);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "show " + show.showId() + " not preloaded (its first claims load its blocks): " + e.getMessage());
        }
        snapshots.get(show);
    }
}
