-- Whether a show admits printed codes (the QR image, print-at-home) beside the ticket app's rotating
-- codes. On by default; an admin turns it off for a show where a screenshot must be worthless.
ALTER TABLE shows ADD COLUMN print_at_home boolean NOT NULL DEFAULT true;
