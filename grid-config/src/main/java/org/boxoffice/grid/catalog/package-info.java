/**
 * The catalog on the grid: one denormalized {@link org.boxoffice.grid.catalog.EventListing} per
 * event in the {@code catalog_events} map, loaded from the durable catalog, searched with
 * Hazelcast SQL; {@link org.boxoffice.grid.catalog.CatalogChanges} tells every member when the map
 * changed, so members can keep answers built from it. Read-only on the grid; SQL is never used to
 * change seat state.
 */
package org.boxoffice.grid.catalog;
