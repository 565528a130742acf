package org.boxoffice.app.auth;

/**
 * How callers are authenticated: the JWT verification key, the issuer, and the demo switches.
 *
 * @param hmacSecret   HS256 secret (at least 32 bytes), or null
 * @param rsaPublicKey RS256 public key (PEM), or null; exactly one of the two is set
 * @param issuer       required {@code iss} claim, or null for any
 * @param devTokens    serve {@code POST /v1/dev/tokens}: demo mode (see {@code AppSettings.demoMode()})
 * @param devRoles     dev tokens may carry roles (admin, staff); a separate demo switch, off by default
 */
public record AuthSettings(String hmacSecret, String rsaPublicKey, String issuer, boolean devTokens,
                           boolean devRoles) {

    /** Dev tokens without roles. */
    public AuthSettings(String hmacSecret, String rsaPublicKey, String issuer, boolean devTokens) {
        this(hmacSecret, rsaPublicKey, issuer, devTokens, false);
    }
}
