-- The waiting rooms' ledger: what a room the grid loses (more members gone at once than it keeps
-- backups) is rebuilt from (see WaitingRooms and WaitingRoom.restore). The grid writes each row before anyone
-- relies on it: a join before the fan is told its place, the shuffled pre-queue before any of its
-- fans sees a position, an admission as the room's ticker makes it. Times are epoch milliseconds,
-- as the grid holds them, so a rebuilt room signs the same passes.

CREATE TABLE waiting_rooms (
    show_id              text PRIMARY KEY REFERENCES shows,
    mode                 text NOT NULL CHECK (mode IN ('OFF', 'ON', 'AUTO')),
    opens_at_ms          bigint NOT NULL,
    admission_rate       double precision NOT NULL,
    seats_per_buyer      double precision NOT NULL,
    pass_ms              bigint NOT NULL,
    challenge_difficulty int NOT NULL,
    shuffle_seed         bigint,                    -- set when the pre-queue's positions are written
    updated_at           timestamptz NOT NULL DEFAULT now()
);

-- One place per fan and room; position NULL while the fan waits in the pre-queue.
CREATE TABLE waiting_room_places (
    show_id    text NOT NULL REFERENCES waiting_rooms,
    account_id text NOT NULL,
    position   bigint CHECK (position > 0),
    joined_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (show_id, account_id)
);

-- Every position up to admitted_up_to was admitted by admitted_at_ms.
CREATE TABLE waiting_room_admissions (
    show_id        text NOT NULL REFERENCES waiting_rooms,
    admitted_up_to bigint NOT NULL,
    admitted_at_ms bigint NOT NULL,
    PRIMARY KEY (show_id, admitted_up_to)
);

-- The door's challenges already used, until they would have expired anyway: a replay is refused
-- even after the grid lost the map's entry (SpentChallengeStore: inserted when the grid first sees one).
CREATE TABLE spent_challenges (
    nonce         text PRIMARY KEY,
    expires_at_ms bigint NOT NULL
);
CREATE INDEX spent_challenges_expiry ON spent_challenges (expires_at_ms);
