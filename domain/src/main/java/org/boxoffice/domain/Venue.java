package org.boxoffice.domain;

/** A place with seats, in a city. */
public record Venue(String venueId, String name, String city) {
}
