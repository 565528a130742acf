-- General admission: areas of a show sold by count (a standing floor), not seat by seat.
--
-- An area's capacity is split over stripes, one row each, so the grid can spread the area's
-- claims over several entries on different partitions. Each stripe row refuses any admission
-- beyond its own capacity (CHECK taken <= capacity), and the stripes' capacities always add up to
-- the area's (a deferred trigger, checked at commit): so the admissions taken in an area never
-- exceed its capacity, whatever the grid asks. Capacity moves between stripes, and the area's
-- capacity changes, only through the functions of R__general_admission.sql.

CREATE TABLE admission_areas (
    show_id     text NOT NULL REFERENCES shows,
    area        text NOT NULL,
    capacity    int NOT NULL CHECK (capacity >= 0),
    price_cents bigint NOT NULL CHECK (price_cents >= 0),
    stripes     int NOT NULL CHECK (stripes BETWEEN 1 AND 64),
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (show_id, area)
);

-- taken: admissions in ACTIVE hold parts (lapsed ones included until they are ended) and sold.
-- version counts the row's changes: the grid's copy of a stripe writes only at its own version.
CREATE TABLE admission_stripes (
    show_id  text NOT NULL,
    area     text NOT NULL,
    stripe   int NOT NULL CHECK (stripe >= 0),
    capacity int NOT NULL,
    taken    int NOT NULL DEFAULT 0,
    version  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (show_id, area, stripe),
    FOREIGN KEY (show_id, area) REFERENCES admission_areas,
    CONSTRAINT admission_stripes_within_capacity CHECK (taken >= 0 AND taken <= capacity)
);

-- A hold by count: its area and how many admissions (seat_ids is empty).
ALTER TABLE holds ADD COLUMN area text, ADD COLUMN quantity int,
    ADD CONSTRAINT holds_count_or_seats CHECK ((area IS NULL) = (quantity IS NULL) AND (quantity IS NULL OR quantity > 0));

-- What one hold takes from one stripe (a hold may take from several when its first runs dry).
-- ACTIVE parts count in the stripe's taken; ENDED ones no longer (released, lapsed, rolled back);
-- SOLD ones do, for good.
CREATE TABLE admission_hold_parts (
    hold_id  text NOT NULL REFERENCES holds,
    show_id  text NOT NULL,
    area     text NOT NULL,
    stripe   int NOT NULL,
    quantity int NOT NULL CHECK (quantity > 0),
    status   text NOT NULL CHECK (status IN ('ACTIVE', 'ENDED', 'SOLD')),
    PRIMARY KEY (hold_id, stripe),
    FOREIGN KEY (show_id, area, stripe) REFERENCES admission_stripes
);

CREATE INDEX admission_hold_parts_stripe ON admission_hold_parts (show_id, area, stripe) WHERE status <> 'ENDED';
