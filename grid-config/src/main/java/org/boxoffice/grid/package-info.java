/**
 * The grid: Hazelcast member configuration, inventory keys, entry processors and the grid-side
 * services the app calls (claims, releases, expiry sweeps, seat-map snapshots, catalog search).
 * Inventory lives in the {@code inventory} IMap, one entry per block of a show, written through
 * to the durable referee before it changes in memory.
 */
package org.boxoffice.grid;
