/**
 * The flash-sale benchmark ({@code ./boxoffice bench}): command line, child processes (the service,
 * the baseline server), the shared PostgreSQL, and the order a run goes in.
 */
package org.boxoffice.bench;
