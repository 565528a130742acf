-- This database's identity as a referee: drawn once, when the schema is made. Every grid member
-- reads it at start and a cluster never takes a member whose referee is another database (two
-- referees under one grid could each accept a claim the other never sees). A copy of the
-- database (a restored backup) keeps the identity, as it keeps the rows it vouches for.
CREATE TABLE referee (
    one        boolean PRIMARY KEY DEFAULT true CHECK (one),
    id         uuid NOT NULL DEFAULT gen_random_uuid(),
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO referee DEFAULT VALUES;
