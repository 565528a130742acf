/**
 * The grid member: its Hazelcast configuration (maps, stores, serializers, split-brain protection,
 * joining) and its start. The one place that knows every other grid package; nothing in the grid
 * depends on it.
 */
package org.boxoffice.grid.member;
