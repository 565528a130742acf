package org.boxoffice.grid.room;

/**
 * What a room operation tells the caller: the room's counters and, for one account, its place.
 *
 * @param length        positions handed out so far (after the opening)
 * @param preQueueSize  fans who joined before the opening
 * @param admittedUpTo  every position up to this one is admitted
 * @param validPasses   passes outstanding: buyers admitted within the last pass lifetime, one pass each
 * @param position      the account's position, 0 if it has none (yet)
 * @param inPreQueue    the account waits in the pre-queue for the opening shuffle
 * @param admittedAt    when the account's position was admitted (its pass is valid from then), 0 if it
 *                      is not admitted or its pass has expired
 * @param challengeDifficulty key derivations the door's proof-of-work asks of a joining fan on
 *                      average; 0 when joining needs no challenge
 */
public record RoomView(String showId, WaitingRoom.Mode mode, long opensAt, double ratePerSecond, double seatsPerBuyer,
                       long passMillis, boolean shuffled, long seed, long length, int preQueueSize, long admittedUpTo,
                       long validPasses, long position, boolean inPreQueue, long admittedAt,
                       int challengeDifficulty) {

    public boolean admitted() {
        return position > 0 && position <= admittedUpTo;
    }

    /** Positions ahead of the account (0 once admitted). */
    public long ahead() {
        return position == 0 ? Math.max(0, length - admittedUpTo) : Math.max(0, position - admittedUpTo - 1);
    }

    public boolean active(long now) {
        return switch (mode) {
            case OFF -> false;
            case ON -> true;
            case AUTO -> now >= opensAt - WaitingRoom.AUTO_BEFORE_MILLIS && now < opensAt + WaitingRoom.AUTO_AFTER_MILLIS;
        };
    }
}
