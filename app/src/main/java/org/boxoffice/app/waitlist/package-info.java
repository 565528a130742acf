/**
 * The waitlist of sold-out shows over HTTP: joining, one's standing, leaving, and the offers made
 * from it, plus the offer mails and the lines' lengths for the metrics. The line itself and the offers live on the grid
 * ({@link org.boxoffice.grid.waitlist}); {@link org.boxoffice.app.waitlist.WaitlistModule} wires it.
 */
package org.boxoffice.app.waitlist;
