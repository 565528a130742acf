/**
 * The waitlist of sold-out shows on the grid: one {@code IQueue} per show named
 * {@code waitlist@<showId>}, so it lives on the partition of the show id, written through to the
 * referee by the queue store (org.boxoffice.mapstore.WaitlistQueueStore) before the queue holds an
 * entry; and {@link org.boxoffice.grid.waitlist.WaitlistOffers}, which turns seats, and admissions
 * to general-admission areas, that come back into offers (holds for the waiter at the head of the
 * line), on the member that owns the line.
 */
package org.boxoffice.grid.waitlist;
