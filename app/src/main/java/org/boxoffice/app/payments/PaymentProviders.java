package org.boxoffice.app.payments;

import io.helidon.config.Config;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The payment providers built in, by the name {@code boxoffice.payments.provider} gives them. Each
 * reads its own settings from {@code boxoffice.payments.<name>.*}. A new provider is one
 * {@link PaymentProvider} class with its {@link PaymentProvider.Settings} and a line here.
 */
public final class PaymentProviders {

    /** Per provider name: how its settings are read from its own configuration node. */
    private static final Map<String, Function<Config, PaymentProvider.Settings>> BUILT_IN = new TreeMap<>(Map.of(
            SimulatedPaymentGateway.NAME, SimulatedPaymentGateway.Settings::from));

    private PaymentProviders() {
    }

    /**
     * The settings of the provider {@code payments.provider} names (the simulator if none),
     * read from {@code payments.<name>}.
     *
     * @throws IllegalArgumentException if no provider has that name (the message lists those that do)
     */
    public static PaymentProvider.Settings settings(Config payments) {
        String name = payments.get("provider").asString().orElse(SimulatedPaymentGateway.NAME).trim();
        Function<Config, PaymentProvider.Settings> reader = BUILT_IN.get(name);
        if (reader == null) {
            throw new IllegalArgumentException("boxoffice.payments.provider: no payment provider is named '" + name
                    + "'; the built-in ones are " + String.join(", ", BUILT_IN.keySet()) + " (see docs/checkout.md)");
        }
        return reader.apply(payments.get(name));
    }
}
