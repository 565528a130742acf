-- Repeatable migration: the live definition of what it creates. Flyway runs it after every
-- versioned migration, and again whenever this file changes, so change a definition here and
-- nowhere else (CREATE OR REPLACE keeps its name, arguments and result; to change those, drop the
-- old one in a new versioned migration first). The V migrations that first built these objects
-- stay as they were released: Flyway checks them against the databases they already ran on.

-- Epoch milliseconds, the domain's unit of time.
CREATE OR REPLACE FUNCTION epoch_ms(timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT (extract(epoch FROM $1) * 1000)::bigint $$;
