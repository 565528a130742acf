-- Repeatable migration: the live definition of what it creates. Flyway runs it after every
-- versioned migration, and again whenever this file changes, so change a definition here and
-- nowhere else (CREATE OR REPLACE keeps its name, arguments and result; to change those, drop the
-- old one in a new versioned migration first). The V migrations that first built these objects
-- stay as they were released: Flyway checks them against the databases they already ran on.

-- Group commit: many transitions in one call (one round trip, one commit), each decided on its own.
--
-- apply_seat_transitions first tries the whole batch at once, inside one subtransaction:
--   1. one UPDATE of every seat of every transition, each row checked against its own expected
--      version, state and hold, with one audit row per transition written from what moved;
--   2. if any transition moved fewer seats than it names (stale, partly stale or already
--      applied), that subtransaction is rolled back and the batch goes to
--      apply_seat_transitions_one_by_one: one transition at a time, each in its own
--      subtransaction, which tells the cases apart (and a notice, SQLSTATE BX411, tells the
--      caller, who counts such batches);
--   3. else the holds rows: new holds, extended and confirmed holds, ended holds.
-- A batch that writes one holds row twice also goes one by one, so that no statement updates a row
-- twice. Only transitions of different blocks meet in a batch (the grid runs one store per block at
-- a time), so no two transitions of a batch touch the same seat.
--
-- Per-transition values are arrays indexed by transition; per-seat values (p_idx, p_expected,
-- p_old_states, p_old_holds) are the transitions' seats one after another, p_seat_counts[i] of
-- them for transition i; likewise p_hold_seats by p_hold_seat_counts and p_ended_holds by
-- p_ended_counts. Returns, per transition, the seats it moved, 0 if it was already applied, -1 if
-- it was stale; a stale transition never fails its neighbours.
--
-- The statements use generic plans (plan_cache_mode), planned once per connection: with hash and
-- merge joins and sequential scans off, the plan is nested loops over the batch and key look-ups
-- whatever the batch's size, so the generic plan is the one a custom plan would pick. The index
-- arrays are built by PL/pgSQL loops, which plan nothing; the holds statements run only when the
-- batch has a transition of their kind.

-- The slow path, one transition at a time, same arguments and results: each transition runs
-- apply_seat_transition in its own subtransaction (BEGIN ... EXCEPTION), so a stale one is rolled
-- back alone and reported as -1 while the others stand. Any other error fails the whole call (the
-- caller then applies the stores one by one to tell them apart).
CREATE OR REPLACE FUNCTION apply_seat_transitions_one_by_one(
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

CREATE OR REPLACE FUNCTION apply_seat_transitions(
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
-- the batch is at most a few dozen rows: look each one up by its key, never scan a table
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
-- with the joins above off, the plan for a few dozen rows is the same whatever their number: plan
-- each statement once per connection instead of on every call
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    n int := cardinality(p_show);
    results int[];
    -- for each seat, hold seat and ended hold: the transition (1..n) it belongs to
    seat_of int[];
    hold_seat_of int[];
    ended_of int[];
    fast boolean;
BEGIN
    seat_of := '{}';
    hold_seat_of := '{}';
    ended_of := '{}';
    FOR t IN 1..n LOOP
        FOR k IN 1..p_seat_counts[t] LOOP
            seat_of := seat_of || t;
        END LOOP;
        FOR k IN 1..p_hold_seat_counts[t] LOOP
            hold_seat_of := hold_seat_of || t;
        END LOOP;
        FOR k IN 1..p_ended_counts[t] LOOP
            ended_of := ended_of || t;
        END LOOP;
    END LOOP;
    -- every holds row the batch writes, once
    fast := (SELECT count(*) = count(DISTINCT h)
             FROM (SELECT u.hold_id AS h FROM unnest(p_kind, p_hold_id) AS u(kind, hold_id)
                   WHERE u.kind IN ('HOLD', 'EXTEND', 'CONFIRM')
                   UNION ALL
                   SELECT e FROM unnest(p_ended_holds) AS e) AS written);

    IF fast THEN
        BEGIN
            WITH tr AS (
                SELECT * FROM unnest(p_show, p_block, p_kind, p_new_state, p_hold_id, p_holder, p_held_until,
                                     p_booking_id, p_actor, p_reason, p_at)
                     WITH ORDINALITY AS tr(show_id, block_id, kind, new_state, hold_id, holder, held_until,
                                           booking_id, actor, reason, at, i)
            ), w AS (
                SELECT tr.*, u.idx, u.expected, u.old_state, u.old_hold
                FROM unnest(p_idx, p_expected, p_old_states, p_old_holds, seat_of)
                     AS u(idx, expected, old_state, old_hold, t)
                JOIN tr ON tr.i = u.t
            ), moved AS (
                UPDATE seats s
                SET state      = w.new_state,
                    hold_id    = CASE WHEN w.new_state IN ('HELD', 'SOLD') THEN w.hold_id END,
                    holder     = CASE WHEN w.new_state IN ('HELD', 'SOLD') THEN w.holder END,
                    held_until = CASE WHEN w.new_state = 'HELD' THEN w.held_until END,
                    booking_id = CASE WHEN w.new_state = 'SOLD' THEN w.booking_id END,
                    version    = s.version + 1
                FROM w
                WHERE s.show_id = w.show_id
                  AND s.block_id = w.block_id
                  AND s.idx = w.idx
                  AND s.version = w.expected
                  AND s.state = w.old_state
                  AND (w.old_state <> 'HELD' OR s.hold_id = w.old_hold)
                RETURNING w.i, s.seat_id, s.idx, s.version, w.old_state, w.old_hold
            ), audit AS (
                INSERT INTO seat_transitions (show_id, block_id, at, actor, kind, reason, hold_id, booking_id,
                                              new_state, seat_ids, idxs, old_states, old_holds, old_versions)
                SELECT tr.show_id, tr.block_id, tr.at, tr.actor, tr.kind, tr.reason, tr.hold_id, tr.booking_id,
                       tr.new_state, m.seat_ids, m.idxs, m.old_states, m.old_holds, m.old_versions
                FROM (SELECT m.i, array_agg(m.seat_id ORDER BY m.idx) AS seat_ids, array_agg(m.idx ORDER BY m.idx) AS idxs,
                             array_agg(m.old_state ORDER BY m.idx) AS old_states,
                             array_agg(m.old_hold ORDER BY m.idx) AS old_holds,
                             array_agg(m.version - 1 ORDER BY m.idx) AS old_versions
                      FROM moved m GROUP BY m.i) m
                JOIN tr ON tr.i = m.i
                ORDER BY m.i
                RETURNING 1
            )
            SELECT array_agg(coalesce(c.moved, 0) ORDER BY t.i) INTO results
            FROM generate_series(1, n) AS t(i)
            LEFT JOIN (SELECT m.i, count(*)::int AS moved FROM moved m GROUP BY m.i) c ON c.i = t.i;

            FOR i IN 1..n LOOP
                IF results[i] <> p_seat_counts[i] THEN
                    RAISE EXCEPTION 'transition % of the batch moved % of % seats', i, results[i], p_seat_counts[i]
                        USING ERRCODE = 'BX410';
                END IF;
            END LOOP;

            IF 'HOLD' = ANY (p_kind) THEN
            WITH tr AS (
                SELECT * FROM unnest(p_show, p_kind, p_hold_id, p_holder, p_held_until, p_at)
                     WITH ORDINALITY AS tr(show_id, kind, hold_id, holder, held_until, at, i)
            ), hs AS (
                SELECT u.t, array_agg(u.seat_id ORDER BY u.pos) AS seat_ids
                FROM unnest(p_hold_seats, hold_seat_of) WITH ORDINALITY AS u(seat_id, t, pos)
                GROUP BY u.t
            )
            INSERT INTO holds (hold_id, show_id, account_id, seat_ids, expires_at, status, created_at,
                               total_cents, currency)
            SELECT tr.hold_id, tr.show_id, tr.holder, coalesce(hs.seat_ids, '{}'), tr.held_until, 'ACTIVE', tr.at,
                   (SELECT coalesce(sum(s.price_cents), 0) FROM seats s
                    WHERE s.show_id = tr.show_id AND s.seat_id = ANY (hs.seat_ids)),
                   sh.currency
            FROM tr
            JOIN shows sh ON sh.show_id = tr.show_id
            LEFT JOIN hs ON hs.t = tr.i
            WHERE tr.kind = 'HOLD'
            ON CONFLICT (hold_id) DO NOTHING;
            END IF;

            IF 'EXTEND' = ANY (p_kind) THEN
                UPDATE holds h
                SET expires_at = greatest(h.expires_at, u.held_until), extended = true
                FROM unnest(p_kind, p_hold_id, p_held_until) AS u(kind, hold_id, held_until)
                WHERE u.kind = 'EXTEND' AND h.hold_id = u.hold_id AND h.status = 'ACTIVE';
            END IF;

            IF 'CONFIRM' = ANY (p_kind) THEN
                UPDATE holds h
                SET status = 'CONFIRMED'
                FROM unnest(p_kind, p_hold_id) AS u(kind, hold_id)
                WHERE u.kind = 'CONFIRM' AND h.hold_id = u.hold_id AND h.status <> 'CONFIRMED';
            END IF;

            IF cardinality(p_ended_holds) > 0 THEN
                UPDATE holds h
                SET status = CASE WHEN p_kind[e.t] = 'RELEASE' THEN 'RELEASED' ELSE 'EXPIRED' END
                FROM unnest(p_ended_holds, ended_of) AS e(hold_id, t)
                WHERE h.hold_id = e.hold_id AND h.status = 'ACTIVE';
            END IF;

            RETURN results;
        EXCEPTION WHEN SQLSTATE 'BX410' THEN
            -- someone in the batch is stale or already applied: tell them apart one by one (below)
            NULL;
        END;
    END IF;
    -- the caller counts these batches (a stale grid copy, a replayed store, a repeated holds row)
    RAISE NOTICE 'a batch of % transitions applied one by one', n USING ERRCODE = 'BX411';
    RETURN apply_seat_transitions_one_by_one(p_show, p_block, p_kind, p_seat_counts, p_idx, p_expected, p_old_states,
                                             p_old_holds, p_new_state, p_hold_id, p_holder, p_held_until, p_booking_id,
                                             p_actor, p_reason, p_at, p_hold_seat_counts, p_hold_seats, p_ended_counts,
                                             p_ended_holds);
END
$$;
