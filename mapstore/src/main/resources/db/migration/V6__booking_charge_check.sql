-- Reconciliation confirms each booking's charge with the provider once (a status look-up under the
-- attempt's idempotency key): CONFIRMED when the provider captured that amount in that currency,
-- FLAGGED when it does not know the charge or records it otherwise (money that became seats
-- without reaching the merchant: a forged or mistaken event, a provider bug). Flagged bookings are
-- logged and kept for an operator; nothing is changed about them automatically.
ALTER TABLE bookings ADD COLUMN charge_check text NOT NULL DEFAULT 'UNCHECKED'
    CHECK (charge_check IN ('UNCHECKED', 'CONFIRMED', 'FLAGGED'));
ALTER TABLE bookings ADD COLUMN charge_note text;

CREATE INDEX bookings_charge_unchecked ON bookings (booking_id) WHERE charge_check = 'UNCHECKED';
CREATE INDEX bookings_charge_flagged ON bookings (booking_id) WHERE charge_check = 'FLAGGED';
