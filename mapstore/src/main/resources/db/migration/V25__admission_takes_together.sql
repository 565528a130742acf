-- A change of a general-admission stripe may carry the takes of several holds, decided one after
-- another on the stripe while the write before them was in flight, and stored together: the
-- referee's functions for stripe changes take them as arrays. Their definitions live in
-- R__general_admission.sql; the old signatures go first, as CREATE OR REPLACE cannot change them.
DROP FUNCTION IF EXISTS apply_admission_batch(text[], text[], int[], bigint[], text[], text[], text[], int[], int[],
    timestamptz[], timestamptz[], int[], text[]);
DROP FUNCTION IF EXISTS apply_admission_change(text, text, int, bigint, text, text, text, int, int, timestamptz,
    timestamptz, text[]);
