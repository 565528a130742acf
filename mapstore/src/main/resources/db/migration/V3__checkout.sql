-- Checkout: payment attempts, bookings and their seats (the tickets), provider events, ticket mail.
--
-- Seats become SOLD only through apply_seat_transition (V2), like every other seat change. These
-- tables record the money around it, and add two rules the referee enforces whatever the
-- application does: one booking per hold, and a seat in at most one live booking.

-- Booking ids are the SOLD seats' owner (seats.booking_id); they come from here, never from the grid.
CREATE SEQUENCE booking_ids START WITH 100001;

-- One row per attempt to pay for a hold. Each attempt has its own provider idempotency key, so a
-- network retry of the attempt never charges twice and a new attempt after a decline is a new charge.
--   status:     what the provider did (PENDING and UNKNOWN are undecided; the first CAPTURED or
--               DECLINED decides for good)
--   settlement: what the service did with captured money (booked it, or rejected and refunded it)
--   refund:     whether the money is being or has been given back
CREATE TABLE payments (
    payment_id      text PRIMARY KEY,
    hold_id         text NOT NULL REFERENCES holds,
    attempt         int NOT NULL CHECK (attempt > 0),
    idempotency_key text NOT NULL UNIQUE,
    show_id         text NOT NULL REFERENCES shows,
    account_id      text NOT NULL,
    amount_cents    bigint NOT NULL CHECK (amount_cents >= 0),
    currency        text NOT NULL,
    method          text NOT NULL,
    recipient       text NOT NULL,
    status          text NOT NULL CHECK (status IN ('PENDING', 'UNKNOWN', 'CAPTURED', 'DECLINED')),
    charge_id       text,
    settlement      text NOT NULL DEFAULT 'NONE'
                    CHECK (settlement IN ('NONE', 'SETTLING', 'BOOKED', 'REJECTED')),
    settling_since  timestamptz,
    booking_id      bigint,
    refund          text NOT NULL DEFAULT 'NONE' CHECK (refund IN ('NONE', 'REQUESTED', 'REFUNDED')),
    reason          text,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    UNIQUE (hold_id, attempt),
    CHECK (settlement = 'NONE' OR status = 'CAPTURED'),
    CHECK (refund = 'NONE' OR status = 'CAPTURED'),
    CHECK (settlement NOT IN ('SETTLING', 'BOOKED') OR booking_id IS NOT NULL)
);

-- At most one attempt of a hold settles or is booked at a time: two captured attempts of one hold
-- (a late success after a retry) never confirm seats against each other; the second is refunded.
CREATE UNIQUE INDEX payments_one_settlement_per_hold ON payments (hold_id)
    WHERE settlement IN ('SETTLING', 'BOOKED');

-- What reconciliation looks at: attempts that are undecided, captured but unsettled, or owed a refund.
CREATE INDEX payments_attention ON payments (updated_at)
    WHERE status IN ('PENDING', 'UNKNOWN') OR (status = 'CAPTURED' AND settlement IN ('NONE', 'SETTLING'))
       OR refund = 'REQUESTED';

CREATE TABLE bookings (
    booking_id   bigint PRIMARY KEY,
    hold_id      text NOT NULL UNIQUE REFERENCES holds,      -- one booking per hold
    payment_id   text NOT NULL UNIQUE REFERENCES payments,
    show_id      text NOT NULL REFERENCES shows,
    account_id   text NOT NULL,
    seat_ids     text[] NOT NULL CHECK (cardinality(seat_ids) > 0),
    amount_cents bigint NOT NULL,
    currency     text NOT NULL,
    status       text NOT NULL CHECK (status IN ('CONFIRMED', 'REFUNDED', 'CANCELLED')),
    cancelling   boolean NOT NULL DEFAULT false,             -- tickets stop admitting at once
    created_at   timestamptz NOT NULL,
    refunded_at  timestamptz,
    cancelled_at timestamptz
);

CREATE INDEX bookings_account ON bookings (account_id, created_at DESC);
CREATE INDEX bookings_refunded ON bookings (booking_id) WHERE status = 'REFUNDED';

-- One row per seat of a booking: the ticket. live while the booking is CONFIRMED.
CREATE TABLE booking_seats (
    booking_id bigint NOT NULL REFERENCES bookings,
    show_id    text NOT NULL,
    seat_id    text NOT NULL,
    live       boolean NOT NULL,
    used_at    timestamptz,                                  -- admitted at the gate
    PRIMARY KEY (booking_id, seat_id),
    FOREIGN KEY (show_id, seat_id) REFERENCES seats
);

-- The database itself refuses one seat in two live bookings.
CREATE UNIQUE INDEX booking_seats_live_once ON booking_seats (show_id, seat_id) WHERE live;

-- Provider webhook events already applied, so a redelivered or duplicated event changes nothing.
CREATE TABLE payment_events (
    event_id        text PRIMARY KEY,
    type            text NOT NULL,
    idempotency_key text,
    received_at     timestamptz NOT NULL
);

-- The outbox of ticket mails: written in the booking's transaction, sent later by a dispatcher.
CREATE TABLE ticket_mail (
    mail_id    bigserial PRIMARY KEY,
    booking_id bigint NOT NULL REFERENCES bookings,
    recipient  text NOT NULL,
    attempts   int NOT NULL DEFAULT 0,
    due_at     timestamptz NOT NULL,                         -- next try, or the end of a dispatcher's lease
    sent_at    timestamptz,
    failed     boolean NOT NULL DEFAULT false,               -- gave up after the last attempt
    last_error text
);

CREATE INDEX ticket_mail_due ON ticket_mail (due_at) WHERE sent_at IS NULL AND NOT failed;
