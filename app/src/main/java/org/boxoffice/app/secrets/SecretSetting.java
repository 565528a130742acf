package org.boxoffice.app.secrets;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A setting that holds a secret the service signs or checks with, and the public demo value the
 * shipped configuration gives it. The settings record that holds the secret asks it what is wrong
 * with its value outside demo mode ({@link #problem}) and, in demo mode, for the demo's own secret in
 * place of the public one ({@link #replacingDemoValue}): the rule, and the lines operators read when a
 * start is refused, are written here once for every secret.
 *
 * @param key       the setting's name ({@code boxoffice.auth.secret}), as operators set it
 * @param demoValue the public value the shipped configuration gives it
 */
public record SecretSetting(String key, String demoValue) {

    /** Outside demo mode every secret has at least this many bytes (an HMAC-SHA256 key's size). */
    public static final int MIN_BYTES = 32;

    public SecretSetting {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(demoValue, "demoValue");
    }

    /** The environment variable that sets it, as Helidon maps them ({@code BOXOFFICE_AUTH_SECRET}). */
    public String environmentVariable() {
        return key.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /**
     * What keeps {@code value} from a start outside demo mode: not set, the public demo value, or shorter
     * than {@value #MIN_BYTES} bytes; one line naming the setting and its environment variable. Empty if
     * nothing.
     */
    public Optional<String> problem(String value) {
        if (value == null || value.isBlank()) {
            return Optional.of(key + " is not set (" + environmentVariable() + ")");
        }
        if (value.equals(demoValue)) {
            return Optional.of(key + " is the public demo value; set your own secret (" + environmentVariable() + ")");
        }
        if (value.getBytes(StandardCharsets.UTF_8).length < MIN_BYTES) {
            return Optional.of(key + " is shorter than " + MIN_BYTES + " bytes (" + environmentVariable() + ")");
        }
        return Optional.empty();
    }

    /**
     * {@code value}, or the demo's own secret for this setting if {@code value} is the public demo value
     * ({@code secretOf} gives a setting's secret by its name).
     */
    public String replacingDemoValue(String value, UnaryOperator<String> secretOf) {
        return demoValue.equals(value) ? secretOf.apply(key) : value;
    }
}
