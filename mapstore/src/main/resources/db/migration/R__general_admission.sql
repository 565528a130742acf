-- Repeatable migration: the live definitions for general admission (tables in V19). See
-- R__group_commit.sql for how repeatable migrations are changed.

-- The stripes of an area always add up to the area's capacity: checked at commit, after every
-- change of a stripe's capacity (a claim changes only taken, and is not checked here).
CREATE OR REPLACE FUNCTION check_admission_capacity() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    area_capacity int;
    stripes_capacity int;
BEGIN
    SELECT a.capacity, (SELECT coalesce(sum(s.capacity), 0) FROM admission_stripes s
                        WHERE s.show_id = a.show_id AND s.area = a.area)
    INTO area_capacity, stripes_capacity
    FROM admission_areas a WHERE a.show_id = NEW.show_id AND a.area = NEW.area;
    IF area_capacity IS DISTINCT FROM stripes_capacity THEN
        RAISE EXCEPTION 'area %/% has capacity % but its stripes add up to %', NEW.show_id, NEW.area,
            area_capacity, stripes_capacity USING ERRCODE = '23514';
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS admission_stripes_add_up ON admission_stripes;
CREATE CONSTRAINT TRIGGER admission_stripes_add_up
    AFTER INSERT OR UPDATE OF capacity ON admission_stripes
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION check_admission_capacity();

-- Creates an area and its stripes, the capacity spread evenly. Returns false if it exists already.
CREATE OR REPLACE FUNCTION create_admission_area(p_show text, p_area text, p_capacity int, p_price_cents bigint,
                                                 p_stripes int, p_at timestamptz) RETURNS boolean
LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO admission_areas (show_id, area, capacity, price_cents, stripes, created_at)
    VALUES (p_show, p_area, p_capacity, p_price_cents, p_stripes, p_at)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO admission_stripes (show_id, area, stripe, capacity)
    SELECT p_show, p_area, s, p_capacity / p_stripes + CASE WHEN s < p_capacity % p_stripes THEN 1 ELSE 0 END
    FROM generate_series(0, p_stripes - 1) AS s;
    RETURN true;
END
$$;

-- Sets an area's capacity, never below what is taken: the difference is added to, or taken from,
-- the stripes' unclaimed capacity (most unclaimed first). Every stripe changed moves to a new
-- version, so the grid's copies of them are refused and reloaded. Returns the admissions taken,
-- and whether the capacity was set (false: the new capacity is below what is taken, or no area).
CREATE OR REPLACE FUNCTION resize_admission_area(p_show text, p_area text, p_capacity int,
                                                 OUT taken int, OUT resized boolean)
LANGUAGE plpgsql
AS $$
DECLARE
    old_capacity int;
    delta int;
    s record;
    step int;
BEGIN
    resized := false;
    SELECT a.capacity INTO old_capacity FROM admission_areas a
    WHERE a.show_id = p_show AND a.area = p_area FOR UPDATE;
    IF NOT FOUND THEN
        taken := 0;
        RETURN;
    END IF;
    -- the stripes locked in one order, before they are read
    PERFORM 1 FROM admission_stripes x WHERE x.show_id = p_show AND x.area = p_area ORDER BY x.stripe FOR UPDATE;
    SELECT coalesce(sum(x.taken), 0) INTO taken FROM admission_stripes x WHERE x.show_id = p_show AND x.area = p_area;
    IF p_capacity < taken THEN
        RETURN;
    END IF;
    delta := p_capacity - old_capacity;
    UPDATE admission_areas a SET capacity = p_capacity WHERE a.show_id = p_show AND a.area = p_area;
    FOR s IN SELECT x.stripe, x.capacity - x.taken AS free FROM admission_stripes x
             WHERE x.show_id = p_show AND x.area = p_area ORDER BY x.capacity - x.taken DESC, x.stripe LOOP
        EXIT WHEN delta = 0;
        IF delta > 0 THEN
            step := delta;     -- all of an increase goes to the stripe with the most left; rebalancing spreads it
        ELSE
            step := -least(-delta, s.free);
        END IF;
        IF step <> 0 THEN
            UPDATE admission_stripes x SET capacity = x.capacity + step, version = x.version + 1
            WHERE x.show_id = p_show AND x.area = p_area AND x.stripe = s.stripe;
            delta := delta - step;
        END IF;
    END LOOP;
    resized := true;
END
$$;

-- Moves up to p_want unclaimed admissions of capacity from one stripe of an area to another (the
-- rebalancing of a draining sale). Both rows move to new versions. Returns how many moved.
CREATE OR REPLACE FUNCTION move_admission_capacity(p_show text, p_area text, p_from int, p_to int, p_want int)
RETURNS int
LANGUAGE plpgsql
AS $$
DECLARE
    moved int;
BEGIN
    IF p_from = p_to OR p_want <= 0 THEN
        RETURN 0;
    END IF;
    PERFORM 1 FROM admission_stripes x WHERE x.show_id = p_show AND x.area = p_area AND x.stripe IN (p_from, p_to)
    ORDER BY x.stripe FOR UPDATE;
    SELECT least(p_want, x.capacity - x.taken) INTO moved FROM admission_stripes x
    WHERE x.show_id = p_show AND x.area = p_area AND x.stripe = p_from;
    IF moved IS NULL OR moved <= 0 THEN
        RETURN 0;
    END IF;
    UPDATE admission_stripes x SET capacity = x.capacity - moved, version = x.version + 1
    WHERE x.show_id = p_show AND x.area = p_area AND x.stripe = p_from;
    UPDATE admission_stripes x SET capacity = x.capacity + moved, version = x.version + 1
    WHERE x.show_id = p_show AND x.area = p_area AND x.stripe = p_to;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no stripe %/%/%', p_show, p_area, p_to;
    END IF;
    RETURN moved;
END
$$;

-- The referee's one write for a change of one stripe, made by the grid's copy at version
-- p_version - 1 (its new value is at p_version). In one transaction:
--   1. the parts p_ended (lapsed holds the grid gave back, or the hold p_hold_id released) end,
--      and lapsed holds among them are marked EXPIRED, a released one RELEASED;
--   2. a TAKE writes the hold's row (the first of its parts does; the others find it) and its part
--      on this stripe, and so for each of the takes stored with it (p_more_*: other holds' takes the
--      grid decided on this stripe right after, in one write with this one: all or none);
--   3. a CONFIRM turns the hold's part SOLD (and the hold CONFIRMED); an EXTEND moves the hold's
--      expiry (never back) and marks it extended; a RETURN gives back the hold's SOLD part on this
--      stripe (a cancelled or refused sale), once: a part not SOLD any more, or a hold whose booking
--      still admits (CONFIRMED), raises BX409 and writes nothing, so of racing returns one counts;
--   4. the stripe's taken moves by what the parts say (not by what the grid says), at the grid's
--      version only: a stale copy raises BX409 and writes nothing; more than the stripe's capacity
--      raises a check violation (23514) and writes nothing.
-- Returns the stripe's taken after the change. The p_more_* arguments may be left out, as members
-- of the release before them call it while a rolling upgrade replaces them: no takes stored with it.
CREATE OR REPLACE FUNCTION apply_admission_change(
    p_show      text,
    p_area      text,
    p_stripe    int,
    p_version   bigint,
    p_kind      text,
    p_hold_id   text,
    p_holder    text,
    p_quantity  int,
    p_hold_quantity int,
    p_expires   timestamptz,
    p_at        timestamptz,
    p_ended     text[],
    p_more_holds          text[] DEFAULT NULL,
    p_more_holders        text[] DEFAULT NULL,
    p_more_quantities     int[] DEFAULT NULL,
    p_more_hold_quantities int[] DEFAULT NULL,
    p_more_expires        timestamptz[] DEFAULT NULL,
    p_more_ats            timestamptz[] DEFAULT NULL
) RETURNS int
LANGUAGE plpgsql
AS $$
DECLARE
    freed int := 0;
    added int := 0;
    result int;
BEGIN
    IF cardinality(p_ended) > 0 THEN
        WITH ended AS (
            UPDATE admission_hold_parts p SET status = 'ENDED'
            WHERE p.hold_id = ANY (p_ended) AND p.show_id = p_show AND p.area = p_area AND p.stripe = p_stripe
              AND p.status = 'ACTIVE'
            RETURNING p.quantity
        )
        SELECT coalesce(sum(quantity), 0) INTO freed FROM ended;
        UPDATE holds h SET status = CASE WHEN p_kind = 'RELEASE' THEN 'RELEASED' ELSE 'EXPIRED' END
        WHERE h.hold_id = ANY (p_ended) AND h.status = 'ACTIVE';
    END IF;

    IF p_kind = 'TAKE' THEN
        INSERT INTO holds (hold_id, show_id, account_id, seat_ids, expires_at, status, created_at, total_cents,
                           currency, area, quantity)
        SELECT p_hold_id, p_show, p_holder, '{}', p_expires, 'ACTIVE', p_at, a.price_cents * p_hold_quantity,
               sh.currency, p_area, p_hold_quantity
        FROM admission_areas a JOIN shows sh ON sh.show_id = a.show_id
        WHERE a.show_id = p_show AND a.area = p_area
        ON CONFLICT (hold_id) DO NOTHING;
        INSERT INTO admission_hold_parts (hold_id, show_id, area, stripe, quantity, status)
        VALUES (p_hold_id, p_show, p_area, p_stripe, p_quantity, 'ACTIVE');
        added := p_quantity;
        IF cardinality(p_more_holds) > 0 THEN
            INSERT INTO holds (hold_id, show_id, account_id, seat_ids, expires_at, status, created_at, total_cents,
                               currency, area, quantity)
            SELECT m.hold_id, p_show, m.holder, '{}', m.expires, 'ACTIVE', m.at, a.price_cents * m.hold_quantity,
                   sh.currency, p_area, m.hold_quantity
            FROM unnest(p_more_holds, p_more_holders, p_more_hold_quantities, p_more_expires, p_more_ats)
                     AS m (hold_id, holder, hold_quantity, expires, at)
            JOIN admission_areas a ON a.show_id = p_show AND a.area = p_area
            JOIN shows sh ON sh.show_id = a.show_id
            ON CONFLICT (hold_id) DO NOTHING;
            INSERT INTO admission_hold_parts (hold_id, show_id, area, stripe, quantity, status)
            SELECT m.hold_id, p_show, p_area, p_stripe, m.quantity, 'ACTIVE'
            FROM unnest(p_more_holds, p_more_quantities) AS m (hold_id, quantity);
            added := added + (SELECT sum(q) FROM unnest(p_more_quantities) AS q);
        END IF;
    ELSIF p_kind = 'CONFIRM' THEN
        UPDATE admission_hold_parts p SET status = 'SOLD'
        WHERE p.hold_id = p_hold_id AND p.show_id = p_show AND p.area = p_area AND p.stripe = p_stripe
          AND p.status = 'ACTIVE';
        IF NOT FOUND THEN
            RAISE EXCEPTION 'stale admissions: %/%/% has no active part of hold %', p_show, p_area, p_stripe, p_hold_id
                USING ERRCODE = 'BX409';
        END IF;
        UPDATE holds h SET status = 'CONFIRMED' WHERE h.hold_id = p_hold_id AND h.status = 'ACTIVE';
    ELSIF p_kind = 'EXTEND' THEN
        PERFORM 1 FROM admission_hold_parts p
        WHERE p.hold_id = p_hold_id AND p.show_id = p_show AND p.area = p_area AND p.stripe = p_stripe
          AND p.status = 'ACTIVE';
        IF NOT FOUND THEN
            RAISE EXCEPTION 'stale admissions: %/%/% has no active part of hold %', p_show, p_area, p_stripe, p_hold_id
                USING ERRCODE = 'BX409';
        END IF;
        UPDATE holds h SET expires_at = greatest(h.expires_at, p_expires), extended = true
        WHERE h.hold_id = p_hold_id AND h.status = 'ACTIVE';
    ELSIF p_kind = 'RETURN' THEN
        -- the booking's tickets stop admitting (it is REFUNDED) before its admissions go back on sale
        IF EXISTS (SELECT 1 FROM bookings b WHERE b.hold_id = p_hold_id AND b.status = 'CONFIRMED') THEN
            RAISE EXCEPTION 'admissions of hold % are booked and admit: not given back', p_hold_id
                USING ERRCODE = 'BX409';
        END IF;
        WITH returned AS (
            UPDATE admission_hold_parts p SET status = 'ENDED'
            WHERE p.hold_id = p_hold_id AND p.show_id = p_show AND p.area = p_area AND p.stripe = p_stripe
              AND p.status = 'SOLD' AND p.quantity = p_quantity
            RETURNING p.quantity
        )
        SELECT coalesce(sum(quantity), 0) INTO freed FROM returned;
        IF freed = 0 THEN
            RAISE EXCEPTION 'stale admissions: %/%/% has no sold part of hold % to give back', p_show, p_area, p_stripe,
                p_hold_id USING ERRCODE = 'BX409';
        END IF;
    END IF;

    UPDATE admission_stripes s SET taken = s.taken + added - freed, version = p_version
    WHERE s.show_id = p_show AND s.area = p_area AND s.stripe = p_stripe AND s.version = p_version - 1
    RETURNING s.taken INTO result;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'stale admissions: %/%/% is not at version %', p_show, p_area, p_stripe, p_version - 1
            USING ERRCODE = 'BX409';
    END IF;
    RETURN result;
END
$$;

-- The referee's group commit of general admission: the changes of many stripes in flight at once
-- (each stripe has at most one), applied in one statement and one transaction. Change i is
-- apply_admission_change with the i-th of each array, in a block of its own: a stale copy, or a
-- change beyond its stripe's capacity, writes none of its rows and answers -1 in its place, and
-- the others stand. Any other failure fails the statement (the caller then applies the changes one
-- by one). p_ended is the changes' ended holds one after another, p_ended_counts[i] of them for
-- change i; likewise the takes stored with each change (p_more_*, p_more_counts[i] for change i;
-- left out by members of the release before them, during a rolling upgrade: none).
-- Returns, per change, its stripe's taken after it, or -1.
CREATE OR REPLACE FUNCTION apply_admission_batch(
    p_show           text[],
    p_area           text[],
    p_stripe         int[],
    p_version        bigint[],
    p_kind           text[],
    p_hold_id        text[],
    p_holder         text[],
    p_quantity       int[],
    p_hold_quantity  int[],
    p_expires        timestamptz[],
    p_at             timestamptz[],
    p_ended_counts   int[],
    p_ended          text[],
    p_more_counts    int[] DEFAULT NULL,
    p_more_holds     text[] DEFAULT NULL,
    p_more_holders   text[] DEFAULT NULL,
    p_more_quantities int[] DEFAULT NULL,
    p_more_hold_quantities int[] DEFAULT NULL,
    p_more_expires   timestamptz[] DEFAULT NULL,
    p_more_ats       timestamptz[] DEFAULT NULL
) RETURNS int[]
LANGUAGE plpgsql
AS $$
DECLARE
    n int := coalesce(cardinality(p_kind), 0);
    ended_at int := 1;
    more_at int := 1;
    m int;
    results int[] := array_fill(-1, ARRAY[n]);
BEGIN
    FOR i IN 1..n LOOP
        m := coalesce(p_more_counts[i], 0);
        BEGIN
            results[i] := apply_admission_change(p_show[i], p_area[i], p_stripe[i], p_version[i], p_kind[i],
                p_hold_id[i], p_holder[i], p_quantity[i], p_hold_quantity[i], p_expires[i], p_at[i],
                coalesce(p_ended[ended_at:ended_at + p_ended_counts[i] - 1], '{}'),
                coalesce(p_more_holds[more_at:more_at + m - 1], '{}'),
                coalesce(p_more_holders[more_at:more_at + m - 1], '{}'),
                coalesce(p_more_quantities[more_at:more_at + m - 1], '{}'),
                coalesce(p_more_hold_quantities[more_at:more_at + m - 1], '{}'),
                coalesce(p_more_expires[more_at:more_at + m - 1], '{}'),
                coalesce(p_more_ats[more_at:more_at + m - 1], '{}'));
        EXCEPTION WHEN SQLSTATE 'BX409' OR SQLSTATE '23514' THEN
            results[i] := -1;
        END;
        ended_at := ended_at + p_ended_counts[i];
        more_at := more_at + m;
    END LOOP;
    RETURN results;
END
$$;
