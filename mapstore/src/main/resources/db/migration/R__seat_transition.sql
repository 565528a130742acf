-- Repeatable migration: the live definition of what it creates. Flyway runs it after every
-- versioned migration, and again whenever this file changes, so change a definition here and
-- nowhere else (CREATE OR REPLACE keeps its name, arguments and result; to change those, drop the
-- old one in a new versioned migration first). The V migrations that first built these objects
-- stay as they were released: Flyway checks them against the databases they already ran on.

-- The referee's one write for a single transition of one block (see org.boxoffice.domain.Transition),
-- in one call, so a store costs one round trip in autocommit mode.
--
-- The seat rows move only if each still has its expected version, state and (for HELD) hold; the
-- audit row (seat_transitions, one per transition) is written by the same statement from the rows
-- that moved. If not every seat moved, either the transition is already applied (a retried store:
-- return 0, write nothing) or the grid's copy is stale: RAISE with SQLSTATE BX409, which rolls
-- back everything this call wrote.
--
-- Arrays p_idx, p_expected, p_old_states and p_old_holds are parallel, one element per seat.
-- Returns the number of seats moved.
CREATE OR REPLACE FUNCTION apply_seat_transition(
    p_show        text,
    p_block       int,
    p_kind        text,
    p_idx         int[],
    p_expected    int[],
    p_old_states  text[],
    p_old_holds   text[],
    p_new_state   text,
    p_hold_id     text,
    p_holder      text,
    p_held_until  timestamptz,
    p_booking_id  bigint,
    p_actor       text,
    p_reason      text,
    p_at          timestamptz,
    p_hold_seats  text[],
    p_ended_holds text[]
) RETURNS int
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    seat_count int := cardinality(p_idx);
    moved_count int;
BEGIN
    WITH wanted AS (
        SELECT w.idx, w.expected, w.old_state, w.old_hold
        FROM unnest(p_idx, p_expected, p_old_states, p_old_holds) AS w(idx, expected, old_state, old_hold)
    ), moved AS (
        UPDATE seats s
        SET state      = p_new_state,
            hold_id    = CASE WHEN p_new_state IN ('HELD', 'SOLD') THEN p_hold_id END,
            holder     = CASE WHEN p_new_state IN ('HELD', 'SOLD') THEN p_holder END,
            held_until = CASE WHEN p_new_state = 'HELD' THEN p_held_until END,
            booking_id = CASE WHEN p_new_state = 'SOLD' THEN p_booking_id END,
            version    = s.version + 1
        FROM wanted w
        WHERE s.show_id = p_show
          AND s.block_id = p_block
          AND s.idx = ANY (p_idx)
          AND s.idx = w.idx
          AND s.version = w.expected
          AND s.state = w.old_state
          AND (w.old_state <> 'HELD' OR s.hold_id = w.old_hold)
        RETURNING s.seat_id, s.idx, s.version, w.old_state, w.old_hold
    )
    INSERT INTO seat_transitions (show_id, block_id, at, actor, kind, reason, hold_id, booking_id,
                                  new_state, seat_ids, idxs, old_states, old_holds, old_versions)
    SELECT p_show, p_block, p_at, p_actor, p_kind, p_reason, p_hold_id, p_booking_id, p_new_state,
           array_agg(m.seat_id ORDER BY m.idx), array_agg(m.idx ORDER BY m.idx),
           array_agg(m.old_state ORDER BY m.idx), array_agg(m.old_hold ORDER BY m.idx),
           array_agg(m.version - 1 ORDER BY m.idx)
    FROM moved m
    HAVING count(*) > 0
    RETURNING cardinality(idxs) INTO moved_count;
    moved_count := coalesce(moved_count, 0);

    IF moved_count <> seat_count THEN
        IF moved_count = 0 AND seat_transition_applied(p_show, p_block, p_idx, p_expected,
                                                       p_new_state, p_hold_id, p_held_until,
                                                       p_booking_id) THEN
            RETURN 0;
        END IF;
        RAISE EXCEPTION 'stale inventory: %/% % moved % of % seats at the expected versions',
            p_show, p_block, p_kind, moved_count, seat_count
            USING ERRCODE = 'BX409';
    END IF;

    IF p_kind = 'HOLD' THEN
        INSERT INTO holds (hold_id, show_id, account_id, seat_ids, expires_at, status, created_at,
                           total_cents, currency)
        SELECT p_hold_id, p_show, p_holder, p_hold_seats, p_held_until, 'ACTIVE', p_at,
               (SELECT coalesce(sum(price_cents), 0) FROM seats
                WHERE show_id = p_show AND seat_id = ANY (p_hold_seats)),
               sh.currency
        FROM shows sh
        WHERE sh.show_id = p_show
        ON CONFLICT (hold_id) DO NOTHING;
    ELSIF p_kind = 'EXTEND' THEN
        UPDATE holds
        SET expires_at = greatest(expires_at, p_held_until), extended = true
        WHERE hold_id = p_hold_id AND status = 'ACTIVE';
    ELSIF p_kind = 'CONFIRM' THEN
        UPDATE holds SET status = 'CONFIRMED' WHERE hold_id = p_hold_id AND status <> 'CONFIRMED';
    END IF;

    IF cardinality(p_ended_holds) > 0 THEN
        UPDATE holds
        SET status = CASE WHEN p_kind = 'RELEASE' THEN 'RELEASED' ELSE 'EXPIRED' END
        WHERE hold_id = ANY (p_ended_holds) AND status = 'ACTIVE';
    END IF;

    RETURN moved_count;
END
$$;

-- Whether every seat already shows the transition's outcome: one past its expected version, in the
-- target state and, for HELD and SOLD, owned by the same hold or booking.
CREATE OR REPLACE FUNCTION seat_transition_applied(
    p_show       text,
    p_block      int,
    p_idx        int[],
    p_expected   int[],
    p_new_state  text,
    p_hold_id    text,
    p_held_until timestamptz,
    p_booking_id bigint
) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT count(*) = cardinality(p_idx)
    FROM unnest(p_idx, p_expected) AS w(idx, expected)
    JOIN seats s ON s.show_id = p_show AND s.block_id = p_block AND s.idx = w.idx
    WHERE s.version = w.expected + 1
      AND s.state = p_new_state
      AND (p_new_state <> 'HELD' OR (s.hold_id = p_hold_id AND s.held_until = p_held_until))
      AND (p_new_state <> 'SOLD' OR s.booking_id = p_booking_id)
$$;
