-- Answers to requests sent with an Idempotency-Key, kept as long as the key is honoured (24 hours):
-- the grid remembers them for speed, PostgreSQL so that a retry after a restart of the whole
-- cluster still gets the first answer instead of creating a second hold.
CREATE TABLE idempotency_replies (
    account_id   text NOT NULL,
    idem_key     text NOT NULL,
    request_hash text NOT NULL,
    status       int NOT NULL CHECK (status BETWEEN 100 AND 499),
    body         text NOT NULL,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (account_id, idem_key)
);

CREATE INDEX idempotency_replies_created ON idempotency_replies (created_at);
