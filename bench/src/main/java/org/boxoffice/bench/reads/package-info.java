/**
 * The read benchmark ({@code ./boxoffice bench --reads}): every read endpoint of an on-sale
 * (search, an event, a show, a section's seats, the seat map with and without If-None-Match, the
 * probes) measured beside an empty handler in the same run, then the on-sale's mix of them with
 * fans polling the seat map every two seconds.
 */
package org.boxoffice.bench.reads;
