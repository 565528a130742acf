/**
 * The payment provider's side: the providers the service can be configured with
 * ({@link org.boxoffice.app.payments.PaymentProvider}, chosen by name in
 * {@link org.boxoffice.app.payments.PaymentProviders}), their shared settings, the webhook's event
 * types and signatures, and the built-in simulated provider
 * ({@link org.boxoffice.app.payments.SimulatedPaymentGateway}) the demo and the tests run on.
 * Nothing here knows about holds or bookings; checkout builds on it.
 */
package org.boxoffice.app.payments;
