package org.boxoffice.app.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import org.boxoffice.app.http.ApiException;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;

/**
 * Verifies bearer tokens: signature (HS256 with the configured secret, or RS256 with the configured
 * public key; the token's algorithm must be the configured one), expiry, not-before and issue time
 * (with {@value #CLOCK_LEEWAY_MILLIS} ms of leeway for clock skew), the subject (an account id of at
 * most {@value #MAX_ACCOUNT_ID} printable characters), and issuer if one is configured. Verified
 * tokens are remembered until they expire, so a hot client pays for the signature check once per
 * member. HS256 tokens of the usual shape are read by {@link Hs256TokenReader} (a few microseconds less
 * per first use on each member); RS256 tokens and HS256 tokens of any other shape by Nimbus. Both
 * readers feed the same checks here. Thread-safe.
 */
public final class Authenticator {

    private static final int CACHE_LIMIT = 200_000;
    /**
     * How far ahead of this member's clock a token's {@code nbf} and {@code iat} may be: the skew
     * between the identity provider's clock and ours. Documented in docs/api.md.
     */
    public static final long CLOCK_LEEWAY_MILLIS = 60_000;
    /** The longest account id (a token's {@code sub}). */
    public static final int MAX_ACCOUNT_ID = 64;
    /** An account id: 1 to 64 printable ASCII characters, no spaces (so no NUL, no line breaks). */
    private static final Pattern ACCOUNT_ID = Pattern.compile("[!-~]{1," + MAX_ACCOUNT_ID + "}");

    private final JWSAlgorithm algorithm;
    private final JWSVerifier verifier;
    private final JWSSigner signer;
    /** Reads HS256 tokens of the usual shape without Nimbus; null with RS256. */
    private final Hs256TokenReader hs256;
    private final String issuer;
    private final LongSupplier clock;
    private final Map<String, Verified> cache = new ConcurrentHashMap<>();

    private record Verified(Principal principal, long expiresAt) {
    }

    public Authenticator(AuthSettings settings, LongSupplier clock) {
        this(settings, clock, true);
    }

    /** An authenticator that reads every token with Nimbus: what the lean HS256 reader is compared with. */
    static Authenticator nimbusOnly(AuthSettings settings, LongSupplier clock) {
        return new Authenticator(settings, clock, false);
    }

    private Authenticator(AuthSettings settings, LongSupplier clock, boolean leanHs256) {
        this.clock = clock;
        this.issuer = settings.issuer();
        try {
            if (settings.rsaPublicKey() != null) {
                algorithm = JWSAlgorithm.RS256;
                verifier = new RSASSAVerifier(rsaPublicKey(settings.rsaPublicKey()));
                signer = null;
                hs256 = null;
            } else if (settings.hmacSecret() != null) {
                byte[] secret = settings.hmacSecret().getBytes(StandardCharsets.UTF_8);
                algorithm = JWSAlgorithm.HS256;
                verifier = new MACVerifier(secret);
                signer = new MACSigner(secret);
                hs256 = leanHs256 ? new Hs256TokenReader(secret) : null;
            } else {
                throw new IllegalArgumentException("set boxoffice.auth.secret (HS256) or boxoffice.auth.publickey (RS256)");
            }
        } catch (JOSEException e) {
            throw new IllegalArgumentException("invalid token key: " + e.getMessage()
                    + " (an HS256 secret needs at least 32 bytes)", e);
        }
    }

    /**
     * The key of a PEM {@code PUBLIC KEY} (X.509 SubjectPublicKeyInfo, what {@code openssl rsa -pubout}
     * writes), read with the JDK: Nimbus's PEM reader needs BouncyCastle, which the service does not ship.
     */
    private static RSAPublicKey rsaPublicKey(String pem) {
        String base64 = pem.replace("-----BEGIN PUBLIC KEY-----", "").replace("-----END PUBLIC KEY-----", "")
                .replaceAll("\\s", "");
        try {
            if (KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)))
                    instanceof RSAPublicKey rsa) {
                return rsa;
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // said below
        }
        throw new IllegalArgumentException("boxoffice.auth.publickey must be an RSA public key in PEM "
                + "(-----BEGIN PUBLIC KEY-----, as openssl rsa -pubout writes it)");
    }

    /** The caller of {@code req}; 401 if the token is missing or invalid. */
    public Principal require(ServerRequest req) {
        return authenticate(req).orElseThrow(() -> Refusals.of(Refusal.UNAUTHORIZED,
                "a valid bearer token is required (Authorization: Bearer <jwt>)"));
    }

    /** The caller of {@code req} if it carries a token; 401 if it carries an invalid one. */
    public Optional<Principal> authenticate(ServerRequest req) {
        Optional<String> header = req.headers().first(HeaderNames.AUTHORIZATION);
        if (header.isEmpty()) {
            return Optional.empty();
        }
        String value = header.get();
        if (!value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw Refusals.of(Refusal.UNAUTHORIZED, "the Authorization header must be 'Bearer <jwt>'");
        }
        return Optional.of(verify(value.substring(7).trim()));
    }

    /** Verifies one token. */
    public Principal verify(String token) {
        long now = clock.getAsLong();
        Verified cached = cache.get(token);
        if (cached != null && cached.expiresAt() > now) {
            return cached.principal();
        }
        TokenClaims claims = hs256 == null ? readWithNimbus(token) : switch (hs256.read(token)) {
            case Hs256TokenReader.Outcome.Read read -> read.claims();
            case Hs256TokenReader.Outcome.Refused refused -> throw invalid(refused.why());
            case Hs256TokenReader.Outcome.Unusual unusual -> readWithNimbus(token);
        };
        Long exp = claims.expiresAt();
        if (exp == null || exp <= now) {
            throw invalid("expired");
        }
        if (claims.notBefore() != null && claims.notBefore() > now + CLOCK_LEEWAY_MILLIS) {
            throw invalid("not valid yet");
        }
        if (claims.issuedAt() != null && claims.issuedAt() > now + CLOCK_LEEWAY_MILLIS) {
            throw invalid("issued in the future");
        }
        if (issuer != null && !issuer.equals(claims.issuer())) {
            throw invalid("wrong issuer");
        }
        String subject = claims.subject();
        if (subject == null || !ACCOUNT_ID.matcher(subject).matches()) {
            throw invalid("the subject must be an account id of 1 to " + MAX_ACCOUNT_ID
                    + " printable characters without spaces");
        }
        if (claims.roles() == null) {
            throw invalid("unreadable");
        }
        Principal principal = new Principal(subject, claims.roles());
        if (cache.size() > CACHE_LIMIT) {
            cache.clear();
        }
        cache.put(token, new Verified(principal, exp));
        return principal;
    }

    /** The claims of a token whose signature Nimbus checked (RS256, and HS256 tokens of an unusual shape). */
    private TokenClaims readWithNimbus(String token) {
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            if (!algorithm.equals(jwt.getHeader().getAlgorithm()) || !jwt.verify(verifier)) {
                throw invalid("bad signature");
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            // Nimbus reads a numeric "sub" as its decimal text: an account id is a JSON string, nothing else
            String subject = jwt.getPayload().toJSONObject().get("sub") instanceof String ? claims.getSubject() : null;
            return new TokenClaims(subject, millis(claims.getExpirationTime()), millis(claims.getNotBeforeTime()),
                    millis(claims.getIssueTime()), claims.getIssuer(), roles(claims));
        } catch (ParseException | JOSEException e) {
            throw invalid("unreadable");
        }
    }

    /** The {@code roles} claim; null if it is not a list of strings. */
    private static Set<String> roles(JWTClaimsSet claims) {
        try {
            List<String> roles = claims.getStringListClaim("roles");
            return roles == null ? Set.of() : roles.contains(null) ? null : Set.copyOf(new HashSet<>(roles));
        } catch (ParseException e) {
            return null;
        }
    }

    private static Long millis(Date date) {
        return date == null ? null : date.getTime();
    }

    /** Whether this authenticator can also sign tokens (HS256 only). */
    public boolean canIssue() {
        return signer != null;
    }

    /** Signs a token for {@code accountId} (demo and tests; HS256 only). */
    public String issue(String accountId, Set<String> roles, Duration lifetime) {
        if (signer == null) {
            throw new IllegalStateException("tokens can only be issued with an HS256 secret");
        }
        long now = clock.getAsLong();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .subject(accountId)
                .issueTime(new Date(now))
                .expirationTime(new Date(now + lifetime.toMillis()))
                .claim("roles", List.copyOf(roles));
        if (issuer != null) {
            claims.issuer(issuer);
        }
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(algorithm), claims.build());
            jwt.sign(signer);
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ApiException invalid(String why) {
        return Refusals.of(Refusal.UNAUTHORIZED, "invalid bearer token (" + why + ")");
    }
}
