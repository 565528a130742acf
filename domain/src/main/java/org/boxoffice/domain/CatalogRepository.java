package org.boxoffice.domain;

import java.util.List;
import java.util.Optional;

/** Venues, events and shows as stored durably. */
public interface CatalogRepository {

    List<Venue> venues();

    List<Event> events();

    List<Show> shows();

    Optional<Show> show(String showId);

    /** Whether anything has been stored yet (the demo catalog is seeded only into an empty one). */
    boolean isEmpty();

    void saveVenue(Venue venue);

    void saveEvent(Event event);

    /** Stores a show with its layout and creates one AVAILABLE seat row per seat. */
    void saveShow(Show show);
}
