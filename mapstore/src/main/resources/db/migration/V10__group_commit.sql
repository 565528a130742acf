-- Group commit for the referee, and one audit row per transition instead of one per seat.
--
-- 1. seat_transitions: the audit trail, one row per applied transition with its seats as parallel
--    arrays. A 2-seat hold writes one row and one index entry instead of two of each.
-- 2. seat_events becomes a view with the old per-seat shape, so readers (the audit endpoint,
--    reports, tests) keep working; a seat's history is found through a GIN index on its key.
-- 3. apply_seat_transitions: many transitions in one call (one round trip, one commit), each
--    checked on its own inside its own subtransaction, so a stale one never fails its neighbours.

CREATE TABLE seat_transitions (
    transition_id bigserial PRIMARY KEY,
    show_id       text NOT NULL,
    block_id      int NOT NULL,
    at            timestamptz NOT NULL,
    actor         text NOT NULL,
    kind          text NOT NULL,
    reason        text NOT NULL,
    hold_id       text,
    booking_id    bigint,
    new_state     text NOT NULL,
    -- parallel arrays, one element per seat, ascending by idx
    seat_ids      text[] NOT NULL,
    idxs          int[] NOT NULL,
    old_states    text[] NOT NULL,
    old_holds     text[] NOT NULL,
    old_versions  int[] NOT NULL
);

-- 'show|seat' for every seat of a transition: what the per-seat history looks up.
CREATE FUNCTION seat_keys(p_show text, p_seats text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(p_show || '|' || s), '{}') FROM unnest(p_seats) AS s
$$;

CREATE INDEX seat_transitions_seat ON seat_transitions USING gin (seat_keys(show_id, seat_ids));
CREATE INDEX seat_transitions_show ON seat_transitions (show_id, transition_id);

-- The per-seat rows written so far become one-seat transitions, in their order.
INSERT INTO seat_transitions (transition_id, show_id, block_id, at, actor, kind, reason, hold_id,
                              booking_id, new_state, seat_ids, idxs, old_states, old_holds, old_versions)
SELECT event_id, show_id, block_id, at, actor, kind, reason, hold_id, booking_id, new_state,
       ARRAY[seat_id], ARRAY[idx], ARRAY[old_state], ARRAY[hold_id], ARRAY[old_version]
FROM seat_events ORDER BY event_id;
SELECT setval(pg_get_serial_sequence('seat_transitions', 'transition_id'),
              greatest((SELECT max(transition_id) FROM seat_transitions), 1));

DROP TABLE seat_events;

-- The old shape, one row per seat. event_id keeps the order (a block has at most 256 seats).
CREATE VIEW seat_events AS
SELECT t.transition_id * 1024 + u.n AS event_id, t.show_id, u.seat_id, t.block_id, u.idx, t.at,
       t.actor, t.kind, t.reason, coalesce(t.hold_id, u.old_hold) AS hold_id, t.booking_id,
       u.old_state, t.new_state, u.old_version, u.old_version + 1 AS new_version
FROM seat_transitions t
CROSS JOIN LATERAL unnest(t.seat_ids, t.idxs, t.old_states, t.old_holds, t.old_versions)
     WITH ORDINALITY AS u(seat_id, idx, old_state, old_hold, old_version, n);

-- Same contract as before (V2): moves every seat or none, RAISEs BX409 when stale, returns the
-- number of seats moved (0 for a transition already applied). Only the audit write changed.
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

-- Many transitions in one call: the group commit of the referee. Per-transition values are
-- arrays indexed by transition; per-seat values (p_idx, p_expected, p_old_states, p_old_holds) are
-- the transitions' seats one after another, p_seat_counts[i] of them for transition i; likewise
-- p_hold_seats by p_hold_seat_counts and p_ended_holds by p_ended_counts.
--
-- Each transition runs apply_seat_transition in its own subtransaction (BEGIN ... EXCEPTION):
-- a stale one is rolled back alone and reported as -1; the others stand. Any other error fails
-- the whole call (the caller then applies the transitions one by one to tell them apart).
-- Returns, per transition, the seats it moved (0: already applied) or -1 (stale).
CREATE FUNCTION apply_seat_transitions(
    p_show             text[],
    p_block            int[],
    p_kind             text[],
    p_seat_counts      int[],
    p_idx              int[],
    p_expected         int[],
    p_old_states       text[],
    p_old_holds        text[],
    p_new_state        text[],
    p_hold_id          text[],
    p_holder           text[],
    p_held_until       timestamptz[],
    p_booking_id       bigint[],
    p_actor            text[],
    p_reason           text[],
    p_at               timestamptz[],
    p_hold_seat_counts int[],
    p_hold_seats       text[],
    p_ended_counts     int[],
    p_ended_holds      text[]
) RETURNS int[]
LANGUAGE plpgsql
AS $$
DECLARE
    n int := cardinality(p_show);
    results int[] := array_fill(0, ARRAY[n]);
    seat_at int := 1;
    hold_seat_at int := 1;
    ended_at int := 1;
    c int;
    hc int;
    ec int;
BEGIN
    FOR i IN 1..n LOOP
        c := p_seat_counts[i];
        hc := p_hold_seat_counts[i];
        ec := p_ended_counts[i];
        BEGIN
            results[i] := apply_seat_transition(
                p_show[i], p_block[i], p_kind[i],
                p_idx[seat_at:seat_at + c - 1], p_expected[seat_at:seat_at + c - 1],
                p_old_states[seat_at:seat_at + c - 1], p_old_holds[seat_at:seat_at + c - 1],
                p_new_state[i], p_hold_id[i], p_holder[i], p_held_until[i], p_booking_id[i],
                p_actor[i], p_reason[i], p_at[i],
                coalesce(p_hold_seats[hold_seat_at:hold_seat_at + hc - 1], '{}'),
                coalesce(p_ended_holds[ended_at:ended_at + ec - 1], '{}'));
        EXCEPTION WHEN SQLSTATE 'BX409' THEN
            results[i] := -1;
        END;
        seat_at := seat_at + c;
        hold_seat_at := hold_seat_at + hc;
        ended_at := ended_at + ec;
    END LOOP;
    RETURN results;
END
$$;
