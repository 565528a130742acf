/** What a run reports: the results model, the targets, {@code results.json}, {@code chart.png} and the summary table. */
package org.boxoffice.bench.report;
