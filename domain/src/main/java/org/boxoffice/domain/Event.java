package org.boxoffice.domain;

/** Something people buy tickets for (a concert, a match, a play), held at one venue. */
public record Event(String eventId, String title, String artist, String category, String venueId,
                    String description) {
}
