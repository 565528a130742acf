-- When each outbox row was written: a message is retried for a bounded time from then (not a
-- number of tries), and the age of the oldest one still pending is a metric. Rows written before
-- this migration count from the migration.
ALTER TABLE ticket_mail ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE waitlist_mail ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE messages ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
