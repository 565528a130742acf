-- The waitlist by count: an entry may wait for admissions to a general-admission area (V19)
-- instead of seats. Its offer is a hold by count (holds.area, holds.quantity) made through the
-- area's stripes like any other, so the stripes' CHECK taken <= capacity still refuses any
-- admission beyond the area's capacity; an offered entry of an area therefore has no seat ids.
--
-- The entry stays in the show's one grid queue (waitlist@<showId>) and its one line of item ids;
-- the offer process serves each area's waiters, and the seats' waiters, in that order apart.

ALTER TABLE waitlist_entries ADD COLUMN area text;
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_area
    FOREIGN KEY (show_id, area) REFERENCES admission_areas (show_id, area);
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_seats_or_area CHECK (area IS NULL OR section IS NULL);

-- V4's rule "an offer names its seats" becomes "an offer names its seats or is one of an area".
ALTER TABLE waitlist_entries DROP CONSTRAINT waitlist_entries_check1;
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_offer_named
    CHECK (state <> 'OFFERED' OR (offer_expires_at IS NOT NULL AND (cardinality(seat_ids) > 0 OR area IS NOT NULL)));
