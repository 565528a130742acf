/**
 * The virtual waiting room on the grid: one {@link org.boxoffice.grid.room.WaitingRoom} per show
 * in the {@code waiting-rooms} map, keyed by show id so it lives on the show's partition, changed
 * only by {@link org.boxoffice.grid.room.RoomProcessor}s (serialized per room, replayed on the
 * backup), which makes positions unique and gapless without any counter in unsafe mode.
 */
package org.boxoffice.grid.room;
