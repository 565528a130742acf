/**
 * Running it: Prometheus metrics (the meters in {@code OpsMetrics}, HTTP requests by route and
 * status, the PostgreSQL pool from HikariCP's hooks, the member and the referee), the scheduled
 * invariant check and expiry-lag probe against PostgreSQL, the metered write-through store, the
 * seat audit endpoint, and the health probes (served from memory). Every metric is listed in
 * docs/operations.md. A module's own meters live with it (the waitlists' lengths in
 * {@code waitlist}, the outboxes' backlog in {@code mail}).
 */
package org.boxoffice.app.ops;
