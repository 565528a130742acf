/**
 * The payment provider's side: the settings of the provider connection, webhook signatures, and
 * the built-in simulated provider ({@link org.boxoffice.app.payments.SimulatedPaymentGateway})
 * used by the demo and the tests behind the {@link org.boxoffice.domain.PaymentGateway} port.
 * Nothing here knows about holds or bookings; checkout builds on it.
 */
package org.boxoffice.app.payments;
