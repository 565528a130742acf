-- A waitlist offer is told on the fan's open page as it is made (OFFER_MADE), not only by mail and
-- by the page's poll: the notice is written by the statement that records the offer, so an offer
-- never exists without it and a rolled-back offer never tells of itself. Page only: the offer's
-- mail (waitlist_mail) is the fan's other channel.
ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check
    CHECK (kind IN ('TICKETS', 'HOLD_LAPSED', 'OFFER_MADE', 'OFFER_LAPSING'));

-- A notice of an offer names its hold; what the offer holds is read from its entry when it is sent.
CREATE INDEX waitlist_entries_hold ON waitlist_entries (hold_id) WHERE hold_id IS NOT NULL;
