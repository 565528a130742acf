/**
 * The PostgreSQL-only designs Boxoffice is compared with: their schema, their two claim strategies
 * and the HTTP server that exposes them with Boxoffice's API shape.
 */
package org.boxoffice.bench.baseline;
