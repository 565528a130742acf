-- At most one payment attempt of a hold that holds or may still move its money: undecided (PENDING,
-- or UNKNOWN after a timeout, when the charge may still be captured), or captured and settling or
-- booked. Two checkouts of one hold sent at once used to both pass the application's check and both
-- charge the card; now the second INSERT fails on this index and its checkout answers with the
-- first attempt (409 PAYMENT_IN_PROGRESS, or its booking) without calling the provider. A new
-- attempt is possible only after a decline, or after captured money was refused and refunded.
-- The predicate is PaymentAttempt.live(); an attempt never moves back into it.
CREATE UNIQUE INDEX payments_one_live_attempt_per_hold ON payments (hold_id)
    WHERE status IN ('PENDING', 'UNKNOWN') OR (status = 'CAPTURED' AND settlement IN ('NONE', 'SETTLING', 'BOOKED'));
