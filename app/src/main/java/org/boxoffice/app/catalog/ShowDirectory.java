package org.boxoffice.app.catalog;

import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.Venue;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Venues, events and shows, cached on this member: loaded once at start, extended when a show is
 * created here or announced by another member, and on a miss read from the durable catalog. A
 * show's layout and rules do not change once it exists, so entries never go stale; {@link #version()}
 * moves whenever something is added, so answers built from the directory know when to rebuild.
 */
public final class ShowDirectory {

    private final CatalogRepository catalog;
    private final Map<String, Show> shows = new ConcurrentHashMap<>();
    private final Map<String, Event> events = new ConcurrentHashMap<>();
    private final Map<String, Venue> venues = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();

    public ShowDirectory(CatalogRepository catalog) {
        this.catalog = catalog;
        reload();
    }

    /** Reads everything from the durable catalog again. */
    public void reload() {
        catalog.venues().forEach(v -> put(venues, v.venueId(), v));
        catalog.events().forEach(e -> put(events, e.eventId(), e));
        catalog.shows().forEach(s -> put(shows, s.showId(), s));
    }

    /** Puts a value, moving the version only if it is new or different: re-reading the same catalog changes nothing. */
    private <T> void put(Map<String, T> map, String id, T value) {
        if (!value.equals(map.put(id, value))) {
            version.incrementAndGet();
        }
    }

    /** Moves (never backwards) after every change to what this directory holds. */
    public long version() {
        return version.get();
    }

    public Optional<Show> find(String showId) {
        if (showId == null || showId.isEmpty() || showId.length() > 100) {
            return Optional.empty();
        }
        Show cached = shows.get(showId);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<Show> loaded = catalog.show(showId);
        loaded.ifPresent(this::add);
        return loaded;
    }

    public Optional<Event> event(String eventId) {
        Event e = events.get(eventId);
        if (e == null && eventId != null) {
            catalog.events().forEach(ev -> put(events, ev.eventId(), ev));
            e = events.get(eventId);
        }
        return Optional.ofNullable(e);
    }

    public Optional<Venue> venue(String venueId) {
        Venue v = venues.get(venueId);
        if (v == null && venueId != null) {
            catalog.venues().forEach(ve -> put(venues, ve.venueId(), ve));
            v = venues.get(venueId);
        }
        return Optional.ofNullable(v);
    }

    /** The event's shows, earliest first. */
    public List<Show> showsOf(String eventId) {
        return shows.values().stream().filter(s -> s.eventId().equals(eventId))
                .sorted(Comparator.comparingLong(Show::startsAt).thenComparing(Show::showId)).toList();
    }

    /** Every show this directory knows. */
    public List<Show> shows() {
        return List.copyOf(shows.values());
    }

    /** Remembers a show created on this member or announced by another. */
    public void add(Show show) {
        put(shows, show.showId(), show);
    }
}
