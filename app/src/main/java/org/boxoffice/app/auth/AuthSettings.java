package org.boxoffice.app.auth;

import io.helidon.config.Config;
import org.boxoffice.app.secrets.SecretSetting;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * How callers are authenticated ({@code boxoffice.auth.*}): the JWT verification key, the issuer,
 * and the demo switches.
 *
 * @param hmacSecret   HS256 secret (at least 32 bytes), or null
 * @param rsaPublicKey RS256 public key (PEM), or null; exactly one of the two is set
 * @param issuer       required {@code iss} claim, or null for any
 * @param devTokens    serve {@code POST /v1/dev/tokens}: demo mode (see {@code AppSettings.demoMode()})
 * @param devRoles     dev tokens may carry roles (admin, staff); a separate demo switch, off by default
 */
public record AuthSettings(String hmacSecret, String rsaPublicKey, String issuer, boolean devTokens,
                           boolean devRoles) {

    /** The public demo value of {@code boxoffice.auth.secret}: accepted in demo mode only. */
    public static final String DEMO_AUTH_SECRET = "boxoffice-demo-secret-change-me-in-production";
    private static final SecretSetting HMAC_SECRET = new SecretSetting("boxoffice.auth.secret", DEMO_AUTH_SECRET);

    /** Reads the settings under {@code boxoffice}. */
    public static AuthSettings from(Config boxoffice) {
        Config auth = boxoffice.get("auth");
        String secret = auth.get("secret").asString().orElse(DEMO_AUTH_SECRET);
        String publicKey = auth.get("publickey").asString().orElse("");
        String issuer = auth.get("issuer").asString().orElse("");
        return new AuthSettings(secret.isBlank() ? null : secret, publicKey.isBlank() ? null : publicKey,
                issuer.isBlank() ? null : issuer, auth.get("devtokens").asBoolean().orElse(false),
                auth.get("devroles").asBoolean().orElse(false));
    }

    /**
     * What keeps these settings from a start outside demo mode: the HS256 secret missing, the public
     * demo value or short ({@link SecretSetting#problem}). Nothing with an RS256 public key, which
     * verifies tokens without it.
     */
    public List<String> secretProblems() {
        return rsaPublicKey != null ? List.of() : HMAC_SECRET.problem(hmacSecret).stream().toList();
    }

    /**
     * These settings with the HS256 secret replaced by the demo's own if it is still the public demo
     * value ({@code secretOf} gives a setting's secret by its name). For demo mode only.
     */
    public AuthSettings withDemoSecrets(UnaryOperator<String> secretOf) {
        return withHmacSecret(HMAC_SECRET.replacingDemoValue(hmacSecret, secretOf));
    }

    public AuthSettings withHmacSecret(String secret) {
        return new AuthSettings(secret, rsaPublicKey, issuer, devTokens, devRoles);
    }

    /** These settings with dev tokens served (demo mode) or not, and allowed roles or not. */
    public AuthSettings withDevTokens(boolean devTokens, boolean devRoles) {
        return new AuthSettings(hmacSecret, rsaPublicKey, issuer, devTokens, devRoles);
    }
}
