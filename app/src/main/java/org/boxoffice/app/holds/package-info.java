/**
 * Holding seats: the hold rules, one small class each, evaluated once per request in the one order
 * of {@link org.boxoffice.app.holds.HoldRules} (show, sale window, size, section, seats, and the
 * seat-map snapshot: the fast gate); the claim on the grid; and idempotent retries.
 */
package org.boxoffice.app.holds;
