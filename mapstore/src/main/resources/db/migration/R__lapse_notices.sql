-- Repeatable migration: the live definition of the trigger function that tells a hold's lapse
-- (the table and the trigger that calls it are in V18). See R__epoch_ms.sql for how repeatable
-- migrations are changed.

-- A hold's lapse is told once, whichever path found it (a claim over the lapsed seats, a member's
-- sweeper, the reconciliation): each of them ends the hold with the same conditional update of
-- holds (ACTIVE -> EXPIRED), so the notice is written by that update, in its transaction, and
-- rolls back with it. A trigger rather than a line in each of the transition functions: those are
-- the hot path's, and a lapse is rare beside them. Holds whose id has a '~' are a late payment's
-- re-claims, which the fan never saw.
CREATE OR REPLACE FUNCTION note_lapsed_hold() RETURNS trigger LANGUAGE plpgsql AS $$
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
