/**
 * The simulated crowd and the run that drives it: show plans, seat maps, how fans choose seats,
 * and the statistics (HdrHistogram) of one run.
 */
package org.boxoffice.bench.load;
