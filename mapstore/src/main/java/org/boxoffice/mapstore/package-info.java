/**
 * The PostgreSQL side of Boxoffice: the schema (Flyway migrations under {@code db/migration}), the
 * pooled data source, an embedded PostgreSQL for local runs, and the durable repositories the
 * grid and the app call: {@link org.boxoffice.mapstore.PostgresInventoryRepository} (the seat
 * referee, on the hot path of every claim), {@link org.boxoffice.mapstore.PostgresAdmissionRepository}
 * (general admission's referee) and {@link org.boxoffice.mapstore.PostgresCatalogRepository}.
 *
 * <p>Nothing here knows about Hazelcast: the grid receives the repositories as domain interfaces.
 * Every repository call borrows one pooled connection and returns it before it returns; a call
 * that needs a transaction runs it through {@link org.boxoffice.mapstore.Transactions}.
 *
 * <p>The schema: tables and indexes in versioned migrations ({@code V<n>__*.sql}), never edited once
 * released (Flyway checks their checksums on every start); functions and views in repeatable
 * migrations ({@code R__*.sql}), each the one live definition of what it creates, run after the
 * versioned ones and again whenever they change.
 */
package org.boxoffice.mapstore;
