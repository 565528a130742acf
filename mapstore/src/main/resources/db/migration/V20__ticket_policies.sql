-- Whether a show admits printed codes (the QR image, print-at-home) beside the ticket app's rotating
-- codes. On by default; an admin turns it off for a show where a screenshot must be worthless.
ALTER TABLE shows ADD COLUMN print_at_home boolean NOT NULL DEFAULT true;

-- Offline gates. One Ed25519 key pair per show, made on first use; the private key is sealed
-- (AES-GCM under a key derived from the ticket secret), so a copy of the database alone signs nothing.
CREATE TABLE show_gate_keys (
    show_id      text PRIMARY KEY REFERENCES shows,
    public_key   bytea NOT NULL,                       -- X.509 SubjectPublicKeyInfo
    sealed_key   bytea NOT NULL,                       -- nonce (12 bytes) + AES-GCM of the PKCS#8 private key
    created_at   timestamptz NOT NULL
);

-- Scans uploaded by gates, once each: a gate uploads again whatever it is not sure arrived, and the
-- scan id (the gate's own, unique) makes every upload after the first change nothing.
CREATE TABLE gate_scans (
    scan_id      text PRIMARY KEY,
    show_id      text NOT NULL REFERENCES shows,
    gate_id      text NOT NULL,
    booking_id   bigint NOT NULL,
    seat_id      text NOT NULL,
    code_version int NOT NULL,
    verdict      text NOT NULL CHECK (verdict IN ('ACCEPT', 'REVOKED', 'EXPIRED_WINDOW', 'BAD_SIGNATURE',
                                                  'ALREADY_SCANNED_HERE')),
    scanned_at   timestamptz NOT NULL,
    uploaded_at  timestamptz NOT NULL
);

-- A ticket presented more than once, at one gate or several: its admitting scans.
CREATE INDEX gate_scans_ticket ON gate_scans (show_id, booking_id, seat_id) WHERE verdict IN ('ACCEPT', 'ALREADY_SCANNED_HERE');
