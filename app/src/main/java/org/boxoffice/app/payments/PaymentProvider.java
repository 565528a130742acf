package org.boxoffice.app.payments;

import org.boxoffice.domain.PaymentGateway;

import java.net.URI;
import java.util.function.LongSupplier;

/**
 * A payment provider the service can be configured with: the {@link PaymentGateway} port checkout
 * calls, plus what running one takes (learning where the service's webhook listens, stopping its
 * background work). Checkout knows providers only through this type; which one runs is
 * {@code boxoffice.payments.provider}, looked up in {@link PaymentProviders}.
 *
 * <p>Implementations are thread-safe, as the port requires.
 */
public interface PaymentProvider extends PaymentGateway, AutoCloseable {

    /**
     * The service's own webhook ({@code POST /v1/payments/webhook}) on this member, told once its
     * web server listens. A provider that posts events to a URL configured on its side ignores it.
     */
    default void webhookAt(URI webhook) {
    }

    /** Stops the provider's background work, if any; no call is made on it afterwards. */
    @Override
    default void close() {
    }

    /**
     * One provider's own settings ({@code boxoffice.payments.<name>.*}), read by
     * {@link PaymentProviders} when the configuration names it; they open the provider.
     */
    interface Settings {

        /** The name {@code boxoffice.payments.provider} gives this provider. */
        String name();

        /** A running provider; {@code payments} holds the settings every provider shares (the webhook secret). */
        PaymentProvider open(PaymentSettings payments, LongSupplier clock);
    }
}
