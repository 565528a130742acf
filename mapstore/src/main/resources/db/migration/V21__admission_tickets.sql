-- Tickets for admissions: a booking of a hold by count has one ticket per admission, a row of
-- booking_seats like a seat's, so codes, QR images, rotating codes, transfers and the gate serve it
-- unchanged. Its seat_id is the ticket's id (AdmissionTickets: 'FLOOR~1', 'FLOOR~2', ... numbered in
-- the booking) and area names the area it admits to (null for a seat ticket).
--
-- A seat ticket still references its seat: the foreign key now goes through seat_ref, the seat id
-- of seat tickets only (a null skips the check), and an admission ticket references its area.
-- One seat in one live booking stays the database's rule; admission tickets are numbered per
-- booking, so the rule covers seat tickets only.
--
-- How many admission tickets an area has live is bounded by its capacity through the stripes: a
-- booking of a hold by count is written only when the hold's parts are SOLD and add up to its
-- quantity (checked in the booking's transaction, the parts locked), SOLD parts count in their
-- stripe's taken (CHECK taken <= capacity), one booking per hold, and a SOLD part is given back
-- (apply_admission_change RETURN) only once its booking no longer admits.

ALTER TABLE booking_seats ADD COLUMN area text;
ALTER TABLE booking_seats ADD COLUMN seat_ref text GENERATED ALWAYS AS (CASE WHEN area IS NULL THEN seat_id END) STORED;
ALTER TABLE booking_seats DROP CONSTRAINT booking_seats_show_id_seat_id_fkey;
ALTER TABLE booking_seats ADD CONSTRAINT booking_seats_seat FOREIGN KEY (show_id, seat_ref) REFERENCES seats (show_id, seat_id);
ALTER TABLE booking_seats ADD CONSTRAINT booking_seats_area FOREIGN KEY (show_id, area) REFERENCES admission_areas (show_id, area);
ALTER TABLE booking_seats ADD CONSTRAINT booking_seats_admission_named
    CHECK (area IS NULL OR seat_id ~ ('^' || area || '~[1-9][0-9]*$'));

DROP INDEX booking_seats_live_once;
CREATE UNIQUE INDEX booking_seats_live_once ON booking_seats (show_id, seat_id) WHERE live AND area IS NULL;
CREATE INDEX booking_seats_live_admissions ON booking_seats (show_id, area) WHERE live AND area IS NOT NULL;
