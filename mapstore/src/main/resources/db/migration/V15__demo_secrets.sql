-- Secrets a demo generates for itself on its first start, one row per setting, so no demo runs on
-- the public values printed in the configuration: a demo reachable from a network is not an open
-- admin console. Every member of a demo cluster shares its database, so they share these too; the
-- embedded demo keeps them in its data folder with the rest of the database. Production sets its
-- own secrets and never writes here.
CREATE TABLE demo_secrets (
    name       text PRIMARY KEY,
    secret     text NOT NULL CHECK (length(secret) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);
