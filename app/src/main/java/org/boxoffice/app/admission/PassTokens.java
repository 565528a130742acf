package org.boxoffice.app.admission;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.Date;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Signs and checks the waiting room's two tokens and the live stream's key, all HS256 JWTs bound to
 * an account ({@code sub}) and a show ({@code aud}):
 * <ul>
 *   <li>the <em>queue token</em> ({@code typ=queue}) names the holder's place ({@code pos}, 0 while
 *       in the pre-queue), so a waiting page can show progress from the public room summary alone;</li>
 *   <li>the <em>pass</em> ({@code typ=pass}) proves admission and is required on holds during a rush,
 *       valid for about ten minutes from the admission. One admission has one pass: it is signed from
 *       the admission (its time and position), so asking again returns the same pass.</li>
 *   <li>the <em>stream key</em> ({@code typ=stream}) lets a page's live stream of the show carry the
 *       fan's own notices (a waitlist offer made for them): an {@code EventSource} sends no
 *       {@code Authorization} header, so the page names the key in the stream's address instead of
 *       its bearer token, and the key opens nothing else.</li>
 * </ul>
 */
public final class PassTokens {

    private final MACSigner signer;
    private final MACVerifier verifier;
    private final LongSupplier clock;

    public PassTokens(String secret, LongSupplier clock) {
        try {
            byte[] key = secret.getBytes(StandardCharsets.UTF_8);
            this.signer = new MACSigner(key);
            this.verifier = new MACVerifier(key);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("boxoffice.room.secret must be at least 32 bytes", e);
        }
        this.clock = clock;
    }

    /** A verified token's content. */
    public record Claims(String type, String accountId, String showId, long position, long expiresAt) {
    }

    /** Why a token was refused. */
    public enum Problem { MISSING, EXPIRED, INVALID }

    /** The outcome of a check: claims, or a problem. */
    public record Check(Claims claims, Problem problem) {
        public boolean ok() {
            return problem == null;
        }
    }

    public String queueToken(String accountId, String showId, long position, long ttlMillis) {
        return sign("queue", accountId, showId, position, clock.getAsLong(), ttlMillis);
    }

    /**
     * The one pass of an admission: valid from {@code admittedAt} for {@code ttlMillis}. The same
     * admission always gives the same pass (HS256 over the same claims), so polling again never
     * mints another one.
     */
    public String pass(String accountId, String showId, long position, long admittedAt, long ttlMillis) {
        return sign("pass", accountId, showId, position, admittedAt, ttlMillis);
    }

    /** A key for {@code accountId}'s live stream of {@code showId}, valid for {@code ttlMillis} from now. */
    public String streamKey(String accountId, String showId, long ttlMillis) {
        return sign("stream", accountId, showId, 0, clock.getAsLong(), ttlMillis);
    }

    /** Checks signature, type and expiry; binding to an account and show is the caller's check. */
    public Check verify(String token, String type) {
        if (token == null || token.isBlank()) {
            return new Check(null, Problem.MISSING);
        }
        try {
            SignedJWT jwt = SignedJWT.parse(token.trim());
            if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()) || !jwt.verify(verifier)) {
                return new Check(null, Problem.INVALID);
            }
            JWTClaimsSet c = jwt.getJWTClaimsSet();
            if (!type.equals(c.getStringClaim("typ")) || c.getAudience() == null || c.getAudience().size() != 1
                    || c.getSubject() == null || c.getExpirationTime() == null) {
                return new Check(null, Problem.INVALID);
            }
            Claims claims = new Claims(type, c.getSubject(), c.getAudience().get(0),
                    c.getLongClaim("pos") == null ? 0 : c.getLongClaim("pos"), c.getExpirationTime().getTime());
            if (claims.expiresAt() <= clock.getAsLong()) {
                return new Check(claims, Problem.EXPIRED);
            }
            return new Check(claims, null);
        } catch (ParseException | JOSEException e) {
            return new Check(null, Problem.INVALID);
        }
    }

    private String sign(String type, String accountId, String showId, long position, long issuedAt, long ttlMillis) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject(accountId)
                .audience(List.of(showId))
                .claim("typ", type)
                .claim("pos", position)
                .issueTime(new Date(issuedAt))
                .expirationTime(new Date(issuedAt + ttlMillis))
                .build();
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(signer);
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
