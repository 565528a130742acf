/**
 * Explicit compact serializers for everything the grid stores or sends between members, listed
 * in {@link org.boxoffice.grid.serialization.GridSerializers}. Explicit rather than reflective so
 * that a field rename is a visible schema change, and records keep their invariants on read.
 */
package org.boxoffice.grid.serialization;
