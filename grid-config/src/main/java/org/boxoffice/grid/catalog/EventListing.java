package org.boxoffice.grid.catalog;

import org.boxoffice.domain.Event;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.Venue;

import java.util.List;

/**
 * An event as search sees it: its venue's name and city and the span of its shows' start times
 * (epoch millis) folded in, so one SQL query over one map answers a search.
 */
public record EventListing(String eventId, String title, String artist, String category, String description,
                           String venueId, String venueName, String city, long firstShowAt, long lastShowAt) {

    public static EventListing of(Event event, Venue venue, List<Show> shows) {
        long first = shows.stream().mapToLong(Show::startsAt).min().orElse(0);
        long last = shows.stream().mapToLong(Show::startsAt).max().orElse(0);
        return new EventListing(event.eventId(), event.title(), event.artist(), event.category(),
                event.description(), venue.venueId(), venue.name(), venue.city(), first, last);
    }
}
