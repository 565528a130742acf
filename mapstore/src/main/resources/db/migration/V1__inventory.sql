-- Catalog and seat inventory. PostgreSQL is the referee for seat state: the grid decides first,
-- but a seat only changes here through apply_seat_transition (V2), a conditional write on version.

CREATE TABLE venues (
    venue_id    text PRIMARY KEY,
    name        text NOT NULL,
    city        text NOT NULL
);

CREATE TABLE events (
    event_id    text PRIMARY KEY,
    title       text NOT NULL,
    artist      text NOT NULL,
    category    text NOT NULL,
    venue_id    text NOT NULL REFERENCES venues,
    description text NOT NULL DEFAULT ''
);

CREATE TABLE shows (
    show_id             text PRIMARY KEY,
    event_id            text NOT NULL REFERENCES events,
    venue_id            text NOT NULL REFERENCES venues,
    starts_at           timestamptz NOT NULL,
    sale_opens_at       timestamptz NOT NULL,
    sale_closes_at      timestamptz NOT NULL,
    max_seats_per_hold  int NOT NULL,
    max_per_account     int NOT NULL,
    hold_millis         bigint NOT NULL,
    grace_millis        bigint NOT NULL,
    block_groups        int NOT NULL,
    cancel_hours        int NOT NULL,
    currency            text NOT NULL,
    CHECK (sale_closes_at > sale_opens_at)
);

CREATE INDEX shows_event ON shows (event_id);

-- ord keeps the sections in the order the layout lists them, so a loaded layout equals the saved one.
CREATE TABLE show_sections (
    show_id     text NOT NULL REFERENCES shows,
    name        text NOT NULL,
    ord         int NOT NULL,
    rank        int NOT NULL,
    price_cents bigint NOT NULL,
    PRIMARY KEY (show_id, name)
);

CREATE TABLE show_blocks (
    show_id      text NOT NULL REFERENCES shows,
    block_id     int NOT NULL,
    section      text NOT NULL,
    rows         text[] NOT NULL,
    seats_in_row int[] NOT NULL,
    PRIMARY KEY (show_id, block_id),
    FOREIGN KEY (show_id, section) REFERENCES show_sections (show_id, name),
    CHECK (cardinality(rows) = cardinality(seats_in_row) AND cardinality(rows) > 0)
);

-- One row per seat per show. version counts the seat's transitions and is the referee's predicate.
-- HELD rows carry hold_id/holder/held_until; SOLD rows carry booking_id, keep the buyer in holder
-- and the hold that was confirmed in hold_id.
-- No foreign key to show_blocks: seat rows are only ever generated from show_blocks, and the
-- per-row check would nearly double the time to create a 60,000-seat show.
CREATE TABLE seats (
    show_id     text NOT NULL,
    seat_id     text NOT NULL,
    block_id    int NOT NULL,
    idx         int NOT NULL,
    section     text NOT NULL,
    row_label   text NOT NULL,
    number      int NOT NULL,
    price_cents bigint NOT NULL,
    state       text NOT NULL DEFAULT 'AVAILABLE'
                CHECK (state IN ('AVAILABLE', 'HELD', 'SOLD', 'BLOCKED')),
    hold_id     text,
    holder      text,
    held_until  timestamptz,
    booking_id  bigint,
    version     int NOT NULL DEFAULT 0,
    PRIMARY KEY (show_id, seat_id),
    UNIQUE (show_id, block_id, idx),
    CHECK (state <> 'HELD' OR (hold_id IS NOT NULL AND holder IS NOT NULL AND held_until IS NOT NULL)),
    CHECK (state <> 'SOLD' OR booking_id IS NOT NULL)
);

-- Reconciliation looks for seats still HELD past their expiry; only HELD rows are worth indexing.
CREATE INDEX seats_held_until ON seats (held_until) WHERE state = 'HELD';
-- The allowance query: an account's seats in a show. Most seats have no holder.
CREATE INDEX seats_holder ON seats (show_id, holder) WHERE holder IS NOT NULL;

-- A hold may span blocks: every block's store inserts the row and the first one wins.
CREATE TABLE holds (
    hold_id     text PRIMARY KEY,
    show_id     text NOT NULL REFERENCES shows,
    account_id  text NOT NULL,
    seat_ids    text[] NOT NULL,
    expires_at  timestamptz NOT NULL,
    status      text NOT NULL CHECK (status IN ('ACTIVE', 'RELEASED', 'EXPIRED', 'CONFIRMED')),
    created_at  timestamptz NOT NULL,
    total_cents bigint NOT NULL,
    currency    text NOT NULL,
    extended    boolean NOT NULL DEFAULT false
);

CREATE INDEX holds_account ON holds (account_id);

-- Append-only audit trail: one row per seat per transition.
CREATE TABLE seat_events (
    event_id    bigserial PRIMARY KEY,
    show_id     text NOT NULL,
    seat_id     text NOT NULL,
    block_id    int NOT NULL,
    idx         int NOT NULL,
    at          timestamptz NOT NULL,
    actor       text NOT NULL,
    kind        text NOT NULL,
    reason      text NOT NULL,
    hold_id     text,
    booking_id  bigint,
    old_state   text NOT NULL,
    new_state   text NOT NULL,
    old_version int NOT NULL,
    new_version int NOT NULL
);

CREATE INDEX seat_events_seat ON seat_events (show_id, seat_id, event_id);
