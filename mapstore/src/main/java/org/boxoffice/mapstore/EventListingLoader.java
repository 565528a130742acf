package org.boxoffice.mapstore;

import org.boxoffice.grid.catalog.EventListing;
import com.hazelcast.map.MapLoader;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.Venue;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Loads event listings from the durable catalog: eagerly when the map is first touched (every key),
 * and again after a split-brain merge or a restart. Runs on Hazelcast's loader threads.
 */
public final class EventListingLoader implements MapLoader<String, EventListing> {

    private final CatalogRepository catalog;

    public EventListingLoader(CatalogRepository catalog) {
        this.catalog = catalog;
    }

    @Override
    public EventListing load(String eventId) {
        return listings().get(eventId);
    }

    @Override
    public Map<String, EventListing> loadAll(Collection<String> keys) {
        Map<String, EventListing> all = listings();
        Map<String, EventListing> wanted = new HashMap<>();
        for (String key : keys) {
            EventListing listing = all.get(key);
            if (listing != null) {
                wanted.put(key, listing);
            }
        }
        return wanted;
    }

    @Override
    public Iterable<String> loadAllKeys() {
        return catalog.events().stream().map(Event::eventId).toList();
    }

    /** Every listing, built from venues, events and shows in three reads. */
    public Map<String, EventListing> listings() {
        Map<String, Venue> venues = catalog.venues().stream().collect(Collectors.toMap(Venue::venueId, Function.identity()));
        Map<String, List<Show>> shows = catalog.shows().stream().collect(Collectors.groupingBy(Show::eventId));
        Map<String, EventListing> out = new HashMap<>();
        for (Event e : catalog.events()) {
            Venue venue = venues.get(e.venueId());
            if (venue != null) {
                out.put(e.eventId(), EventListing.of(e, venue, shows.getOrDefault(e.eventId(), List.of())));
            }
        }
        return out;
    }
}
