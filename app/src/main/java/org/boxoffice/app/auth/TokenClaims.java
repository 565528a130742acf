package org.boxoffice.app.auth;

import java.util.Set;

/**
 * What a token whose signature checked out says, as far as the service reads it; the rules about
 * it (expired, not valid yet, issuer, account id) are {@link Authenticator}'s, whichever reader
 * produced it.
 *
 * @param subject   {@code sub} if it is a JSON string, else null (absent, null or a number)
 * @param expiresAt {@code exp} in epoch milliseconds, or null
 * @param notBefore {@code nbf} in epoch milliseconds, or null
 * @param issuedAt  {@code iat} in epoch milliseconds, or null
 * @param issuer    {@code iss}, or null
 * @param roles     {@code roles}, empty if absent; null if it is not a list of strings
 */
record TokenClaims(String subject, Long expiresAt, Long notBefore, Long issuedAt, String issuer, Set<String> roles) {
}
