/**
 * Checkout: paying for a hold, settling captured money into bookings through the grid and the
 * referee (or refunding it), the provider's webhook, reconciliation with the provider, bookings
 * with signed tickets and QR codes, cancellation within policy, gate checks, and ticket mail from
 * an outbox. {@link org.boxoffice.app.checkout.CheckoutModule} wires it; the class comment of
 * {@link org.boxoffice.app.checkout.Settlement} describes how money becomes SOLD seats.
 */
package org.boxoffice.app.checkout;
