/**
 * The grid: Hazelcast member configuration, inventory keys, entry processors and the grid-side
 * services the app calls (claims, releases, expiry sweeps, seat-map snapshots, catalog search).
 * Inventory lives in the {@code inventory} IMap, one entry per block of a show, written through
 * to the durable referee before it changes in memory; general admission's counts live in the
 * {@code admission-stripes} IMap, one entry per stripe of an area, written through the same way
 * ({@link org.boxoffice.grid.Admissions}).
 */
package org.boxoffice.grid;
