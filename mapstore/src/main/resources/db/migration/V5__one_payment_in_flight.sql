-- At most one payment attempt of a hold in flight: undecided (PENDING, or UNKNOWN after a timeout,
-- when the charge may still be captured) or captured and not yet settled. Two checkouts of one hold
-- sent at once used to both pass the application's check and both charge the card; now the second
-- INSERT fails on this index and its checkout answers 409 PAYMENT_IN_PROGRESS without calling the
-- provider. The predicate is PaymentAttempt.inFlight(); an attempt never moves back into it.
CREATE UNIQUE INDEX payments_one_in_flight_per_hold ON payments (hold_id)
    WHERE status IN ('PENDING', 'UNKNOWN') OR (status = 'CAPTURED' AND settlement IN ('NONE', 'SETTLING'));
