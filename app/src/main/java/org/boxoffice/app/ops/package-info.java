/**
 * Running it: Prometheus metrics, the scheduled invariant check and expiry-lag probe against
 * PostgreSQL, the metered write-through store, and the seat audit endpoint.
 */
package org.boxoffice.app.ops;
