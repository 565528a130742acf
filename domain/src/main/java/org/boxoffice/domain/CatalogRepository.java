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

    /**
     * A catalog with nothing in it that stores nothing: for a directory whose shows are added by hand
     * and never kept (a member's start-up rehearsal), and for grids that load no listings in tests.
     */
    static CatalogRepository none() {
        return NoCatalog.INSTANCE;
    }
}

/** See {@link CatalogRepository#none()}. */
enum NoCatalog implements CatalogRepository {
    INSTANCE;

    @Override
    public List<Venue> venues() {
        return List.of();
    }

    @Override
    public List<Event> events() {
        return List.of();
    }

    @Override
    public List<Show> shows() {
        return List.of();
    }

    @Override
    public Optional<Show> show(String showId) {
        return Optional.empty();
    }

    @Override
    public boolean isEmpty() {
        return true;
    }

    @Override
    public void saveVenue(Venue venue) {
        throw new UnsupportedOperationException("this catalog stores nothing");
    }

    @Override
    public void saveEvent(Event event) {
        throw new UnsupportedOperationException("this catalog stores nothing");
    }

    @Override
    public void saveShow(Show show) {
        throw new UnsupportedOperationException("this catalog stores nothing");
    }
}
