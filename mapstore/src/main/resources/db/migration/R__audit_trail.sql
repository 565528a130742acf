-- Repeatable migration: the live definition of what it creates. Flyway runs it after every
-- versioned migration, and again whenever this file changes, so change a definition here and
-- nowhere else (CREATE OR REPLACE keeps its name, arguments and result; to change those, drop the
-- old one in a new versioned migration first). The V migrations that first built these objects
-- stay as they were released: Flyway checks them against the databases they already ran on.

-- The audit trail is the table seat_transitions, one row per applied transition with its seats as
-- parallel arrays; a seat's history is found through a GIN index on seat_keys.

-- 'show|seat' for every seat of a transition: what the per-seat history looks up. It is the GIN
-- index's expression (seat_transitions_seat): a new definition must give the same keys for the same
-- arguments, element for element, or the index must be rebuilt in a versioned migration. PL/pgSQL:
-- a SQL function with a FROM clause is not inlined and was planned again on every audit row.
CREATE OR REPLACE FUNCTION seat_keys(p_show text, p_seats text[]) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    keys text[] := '{}';
    s text;
BEGIN
    FOREACH s IN ARRAY p_seats LOOP
        keys := keys || (p_show || '|' || s);
    END LOOP;
    RETURN keys;
END
$$;

-- seat_events: the audit trail one row per seat, for its readers (the audit endpoint, reports,
-- tests). event_id keeps the order (a block has at most 256 seats).
CREATE OR REPLACE VIEW seat_events AS
SELECT t.transition_id * 1024 + u.n AS event_id, t.show_id, u.seat_id, t.block_id, u.idx, t.at,
       t.actor, t.kind, t.reason, coalesce(t.hold_id, u.old_hold) AS hold_id, t.booking_id,
       u.old_state, t.new_state, u.old_version, u.old_version + 1 AS new_version
FROM seat_transitions t
CROSS JOIN LATERAL unnest(t.seat_ids, t.idxs, t.old_states, t.old_holds, t.old_versions)
     WITH ORDINALITY AS u(seat_id, idx, old_state, old_hold, old_version, n);
