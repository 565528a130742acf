-- Waitlist for sold-out shows: the durable copy of each show's grid queue (waitlist@<showId>) and
-- the offers made from it, plus the outbox of offer mails.
--
-- The grid queue writes an entry here (through its QueueStore) before it holds the entry in
-- memory, so a restart reloads the line from this table. item_id is the queue's own item id:
-- ascending in arrival order, so it orders the line. Seats are never offered from here: an offer
-- is a hold, made through the grid and apply_seat_transition (V2) like any other.

CREATE TABLE waitlist_entries (
    entry_id         bigint PRIMARY KEY,
    show_id          text NOT NULL REFERENCES shows,
    account_id       text NOT NULL,
    quantity         int NOT NULL CHECK (quantity BETWEEN 1 AND 10),
    section          text,
    recipient        text NOT NULL,
    joined_at        timestamptz NOT NULL,
    item_id          bigint NOT NULL,
    state            text NOT NULL CHECK (state IN ('WAITING', 'OFFERING', 'OFFERED', 'BOOKED', 'EXPIRED',
                                                     'DECLINED', 'LEFT', 'CLOSED', 'REFUSED', 'REMOVED')),
    hold_id          text,                      -- the offer's hold, from OFFERING on
    seat_ids         text[] NOT NULL DEFAULT '{}',
    offer_expires_at timestamptz,
    offered_at       timestamptz,
    reason           text,
    updated_at       timestamptz NOT NULL,
    CHECK (state NOT IN ('OFFERING', 'OFFERED') OR hold_id IS NOT NULL),
    CHECK (state <> 'OFFERED' OR (offer_expires_at IS NOT NULL AND cardinality(seat_ids) > 0))
);

-- One live entry (in line or holding an offer) per account and show, whatever the callers do:
-- two concurrent joins of one account end with one entry.
CREATE UNIQUE INDEX waitlist_one_live_entry ON waitlist_entries (show_id, account_id)
    WHERE state IN ('WAITING', 'OFFERING', 'OFFERED');

-- The line: item ids are unique among the entries in it. (An ended entry keeps its item id for
-- the queue's lookups; a queue emptied before a restart starts numbering again.)
CREATE UNIQUE INDEX waitlist_line ON waitlist_entries (show_id, item_id) WHERE state IN ('WAITING', 'OFFERING');

CREATE INDEX waitlist_item ON waitlist_entries (show_id, item_id);
CREATE INDEX waitlist_account ON waitlist_entries (account_id, show_id, joined_at DESC);
CREATE INDEX waitlist_live ON waitlist_entries (show_id) WHERE state IN ('WAITING', 'OFFERING', 'OFFERED');

-- The outbox of offer mails, written in the transaction that records the offer. One mail per offer.
CREATE TABLE waitlist_mail (
    mail_id    bigserial PRIMARY KEY,
    entry_id   bigint NOT NULL REFERENCES waitlist_entries,
    hold_id    text NOT NULL UNIQUE,
    recipient  text NOT NULL,
    attempts   int NOT NULL DEFAULT 0,
    due_at     timestamptz NOT NULL,                         -- next try, or the end of a dispatcher's lease
    sent_at    timestamptz,
    failed     boolean NOT NULL DEFAULT false,               -- gave up after the last attempt
    last_error text
);

CREATE INDEX waitlist_mail_due ON waitlist_mail (due_at) WHERE sent_at IS NULL AND NOT failed;
