/**
 * Running it: Prometheus metrics, the scheduled invariant check and expiry-lag probe against
 * PostgreSQL, the metered write-through store, the seat audit endpoint, and the health probes
 * (served from memory).
 */
package org.boxoffice.app.ops;
