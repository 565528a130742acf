-- Messages beside the ticket mail: a fan's phone number, and one outbox of messages by channel
-- (a page open on the show, email, SMS) for tickets by SMS and for notices of lapsing holds.

-- A fan's phone number, optional, in E.164 form (the app validates it first; this is the backstop).
CREATE TABLE account_contacts (
    account_id text PRIMARY KEY,
    phone      text NOT NULL CHECK (phone ~ '^\+[1-9][0-9]{6,14}$'),
    updated_at timestamptz NOT NULL
);

-- One row per fact told by one channel. The unique key is what makes a notice once: every member's
-- expiry path may find a lapse, but only the first insert of (kind, subject, channel) stays.
CREATE TABLE messages (
    mail_id    bigserial PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('TICKETS', 'HOLD_LAPSED', 'OFFER_LAPSING')),
    channel    text NOT NULL CHECK (channel IN ('PAGE', 'EMAIL', 'SMS')),
    subject    text NOT NULL,                                -- the booking id (TICKETS), else the hold id
    show_id    text NOT NULL,
    account_id text NOT NULL,
    recipient  text,                                         -- SMS: the number; EMAIL: the address, or null for the account's default
    expires_at timestamptz,                                  -- OFFER_LAPSING: when the offer lapses
    attempts   int NOT NULL DEFAULT 0,
    due_at     timestamptz NOT NULL,                         -- next try, or the end of a dispatcher's lease
    sent_at    timestamptz,
    failed     boolean NOT NULL DEFAULT false,
    last_error text,
    CONSTRAINT messages_once UNIQUE (kind, subject, channel),
    CHECK (channel <> 'SMS' OR recipient IS NOT NULL)
);

CREATE INDEX messages_due ON messages (channel, due_at) WHERE sent_at IS NULL AND NOT failed;

-- Offers that may soon lapse, found by the notices' periodic look.
CREATE INDEX waitlist_offer_expiry ON waitlist_entries (offer_expires_at) WHERE state = 'OFFERED';

-- A hold's lapse is told once, whichever path found it (a claim over the lapsed seats, a member's
-- sweeper, the reconciliation): each of them ends the hold with the same conditional update of
-- holds (ACTIVE -> EXPIRED), so the notice is written by that update, in its transaction, and
-- rolls back with it. A trigger rather than a line in each of the transition functions: those are
-- the hot path's, and a lapse is rare beside them. Holds whose id has a '~' are a late payment's
-- re-claims, which the fan never saw.
CREATE FUNCTION note_lapsed_hold() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_phone text;
BEGIN
    IF position('~' IN NEW.hold_id) > 0 THEN
        RETURN NULL;
    END IF;
    SELECT phone INTO v_phone FROM account_contacts WHERE account_id = NEW.account_id;
    INSERT INTO messages (kind, channel, subject, show_id, account_id, recipient, due_at)
    VALUES ('HOLD_LAPSED', 'PAGE', NEW.hold_id, NEW.show_id, NEW.account_id, NULL, now()),
           ('HOLD_LAPSED', CASE WHEN v_phone IS NULL THEN 'EMAIL' ELSE 'SMS' END, NEW.hold_id, NEW.show_id,
            NEW.account_id, v_phone, now())
    ON CONFLICT ON CONSTRAINT messages_once DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER holds_lapse_notice AFTER UPDATE OF status ON holds
    FOR EACH ROW WHEN (OLD.status = 'ACTIVE' AND NEW.status = 'EXPIRED')
    EXECUTE FUNCTION note_lapsed_hold();

-- Tickets that change hands. A ticket's holder is the booking's account until it is transferred;
-- each transfer bumps the ticket's code version, so the codes issued before stop admitting at once.
ALTER TABLE booking_seats ADD COLUMN holder text;                       -- null: the booking's account
ALTER TABLE booking_seats ADD COLUMN code_version int NOT NULL DEFAULT 0;
-- Accepted transfers of the booking's tickets: bounded per booking, and a booking with any is not
-- refunded. Kept on the booking's row so a transfer and a cancellation update the same row, and
-- PostgreSQL lets exactly one of them through.
ALTER TABLE bookings ADD COLUMN transfers int NOT NULL DEFAULT 0;

CREATE TABLE ticket_transfers (
    transfer_id  bigserial PRIMARY KEY,
    booking_id   bigint NOT NULL,
    seat_id      text NOT NULL,
    from_account text NOT NULL,
    to_account   text NOT NULL,
    code_version int NOT NULL,                                -- the ticket's when offered: accepting needs it unchanged
    status       text NOT NULL CHECK (status IN ('OFFERED', 'ACCEPTED', 'CANCELLED', 'REFUSED')),
    reason       text,
    created_at   timestamptz NOT NULL,
    decided_at   timestamptz,
    FOREIGN KEY (booking_id, seat_id) REFERENCES booking_seats,
    CHECK (from_account <> to_account)
);

-- One open offer per ticket, whoever sends them at once.
CREATE UNIQUE INDEX ticket_transfers_one_open ON ticket_transfers (booking_id, seat_id) WHERE status = 'OFFERED';
CREATE INDEX ticket_transfers_to ON ticket_transfers (to_account);
CREATE INDEX ticket_transfers_from ON ticket_transfers (from_account);
CREATE INDEX booking_seats_holder ON booking_seats (holder) WHERE holder IS NOT NULL;
