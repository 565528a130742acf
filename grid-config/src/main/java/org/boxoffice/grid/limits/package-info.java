/**
 * Velocity limits that hold across the cluster: token buckets kept in the grid, one entry per
 * limited key (an account, a client address), each changed only by an entry processor on its
 * partition, so every member counts against the same bucket.
 */
package org.boxoffice.grid.limits;
