/**
 * Holding seats: the request rules (sale window, sizes, unknown seats, account limits), the fast
 * gate against the seat-map snapshot, the claim on the grid, and idempotent retries.
 */
package org.boxoffice.app.holds;
