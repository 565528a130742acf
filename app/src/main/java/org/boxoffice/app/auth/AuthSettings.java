package org.boxoffice.app.auth;

import io.helidon.config.Config;

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

    public AuthSettings withHmacSecret(String secret) {
        return new AuthSettings(secret, rsaPublicKey, issuer, devTokens, devRoles);
    }

    /** These settings with dev tokens served (demo mode) or not, and allowed roles or not. */
    public AuthSettings withDevTokens(boolean devTokens, boolean devRoles) {
        return new AuthSettings(hmacSecret, rsaPublicKey, issuer, devTokens, devRoles);
    }
}
