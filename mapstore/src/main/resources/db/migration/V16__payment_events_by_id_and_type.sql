-- A provider event is applied once per id and type, not per id alone: an event of another type
-- that happens to carry (or was forged with) the id of a capture still to come must not make that
-- capture a "duplicate" (it would then be booked only by reconciliation, a minute later).
ALTER TABLE payment_events DROP CONSTRAINT payment_events_pkey;
ALTER TABLE payment_events ADD PRIMARY KEY (event_id, type);
