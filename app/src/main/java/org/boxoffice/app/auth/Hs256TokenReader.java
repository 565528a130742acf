package org.boxoffice.app.auth;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads HS256 tokens of the shape identity providers and {@link Authenticator#issue} produce, without
 * Nimbus: a member verifies each buyer's token on first use, and with several members behind a load
 * balancer that happens once per member, so the Nimbus path (a provider look-up and key set-up per
 * HMAC, three JSON parses into maps) was paid several times per buyer.
 *
 * <p>It never decides differently from Nimbus. It answers only for compact tokens whose parts are
 * strict base64url, whose header holds just {@code alg} and optionally {@code typ} and {@code kid} as
 * strings, and whose claims are plain JSON (no duplicate names, no fractions, integers within a long,
 * shallow nesting, registered claims of their usual types): {@link Outcome.Read} after the signature
 * checked out, or {@link Outcome.Refused} where Nimbus refuses too (not three parts, another
 * algorithm, a wrong signature). Anything else is {@link Outcome.Unusual}, and the caller asks
 * Nimbus, whose lenient decoding and own JSON rules then decide exactly as before.
 *
 * <p>Thread-safe: each call clones the keyed {@link Mac} prototype (requests run on virtual threads,
 * so a thread-local instance would not be reused).
 */
final class Hs256TokenReader {

    /** What a token reads as. */
    sealed interface Outcome {
        /** The signature checked out; the claims are for {@link Authenticator} to judge. */
        record Read(TokenClaims claims) implements Outcome {
        }

        /** Not a valid token, for the reason Nimbus would give. */
        record Refused(String why) implements Outcome {
        }

        /** Not a shape this reader decides: Nimbus decides. */
        record Unusual() implements Outcome {
        }
    }

    private static final Outcome UNUSUAL = new Outcome.Unusual();
    private static final String ALGORITHM = "HS256";
    /** Longer headers are not ours: an HS256 header is about 40 characters. */
    private static final int MAX_HEADER = 1_024;
    /** Deeper nesting in a claim the service does not read is left to Nimbus (whose JSON layer has its own limit). */
    private static final int MAX_DEPTH = 32;
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private final Mac prototype;
    /**
     * The header part of the last token whose header read as the usual HS256 one: an issuer sends the
     * same header with every token, and what a header part reads as depends on nothing else.
     */
    private volatile String plainHeader;

    Hs256TokenReader(byte[] secret) {
        try {
            prototype = Mac.getInstance("HmacSHA256");
            prototype.init(new SecretKeySpec(secret, "HmacSHA256"));
            prototype.clone();
        } catch (GeneralSecurityException | CloneNotSupportedException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available as a cloneable Mac", e);
        }
    }

    Outcome read(String token) {
        int length = token.length();
        if (length == 0 || token.charAt(0) <= ' ' || token.charAt(length - 1) <= ' ') {
            return UNUSUAL; // Nimbus trims
        }
        int dot1 = token.indexOf('.');
        int dot2 = dot1 < 0 ? -1 : token.indexOf('.', dot1 + 1);
        if (dot2 < 0 || token.indexOf('.', dot2 + 1) >= 0) {
            return new Outcome.Refused("unreadable"); // a JWS has three parts
        }
        if (dot1 > MAX_HEADER) {
            return UNUSUAL;
        }
        byte[] signature = decode(token, dot2 + 1, length);
        if (signature == null) {
            return UNUSUAL;
        }
        String known = plainHeader;
        if (known == null || dot1 != known.length() || !token.startsWith(known)) {
            byte[] header = decode(token, 0, dot1);
            String algorithm = header == null ? null : algorithm(header);
            if (algorithm == null) {
                return UNUSUAL;
            }
            // in Nimbus's order: "none" fails its header parse, then an empty signature its parse, then
            // another algorithm its algorithm check
            if (algorithm.equals("none") || signature.length == 0) {
                return new Outcome.Refused("unreadable");
            }
            if (!algorithm.equals(ALGORITHM)) {
                return new Outcome.Refused("bad signature");
            }
            plainHeader = token.substring(0, dot1);
        } else if (signature.length == 0) {
            return new Outcome.Refused("unreadable");
        }
        byte[] payload = decode(token, dot1 + 1, dot2);
        if (payload == null) {
            return UNUSUAL;
        }
        // the header and payload parts decoded as base64url, so the signing input is ASCII
        byte[] signingInput = token.substring(0, dot2).getBytes(StandardCharsets.ISO_8859_1);
        if (!MessageDigest.isEqual(mac().doFinal(signingInput), signature)) {
            return new Outcome.Refused("bad signature");
        }
        TokenClaims claims = claims(new String(payload, StandardCharsets.UTF_8));
        return claims == null ? UNUSUAL : new Outcome.Read(claims);
    }

    private Mac mac() {
        try {
            return (Mac) prototype.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e); // checked in the constructor
        }
    }

    /** The part of {@code token} from {@code start} to {@code end} as strict base64url, or null. */
    private static byte[] decode(String token, int start, int end) {
        try {
            return Base64.getUrlDecoder().decode(token.substring(start, end));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The {@code alg} of a header of the usual shape, or null if it is not one. */
    private static String algorithm(byte[] header) {
        String alg = null;
        try (JsonParser p = JSON.createParser(new String(header, StandardCharsets.UTF_8))) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (p.nextToken() != JsonToken.VALUE_STRING) {
                    return null;
                }
                switch (name) {
                    case "alg" -> alg = p.getText();
                    case "typ", "kid" -> {
                    }
                    default -> {
                        return null; // crit, b64, jwk, enc...: Nimbus's rules
                    }
                }
            }
            return p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null ? alg : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The claims of a payload of the usual shape, or null if it is not one. */
    private static TokenClaims claims(String json) {
        String subject = null;
        String issuer = null;
        Long exp = null;
        Long nbf = null;
        Long iat = null;
        Set<String> roles = Set.of();
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "sub" -> {
                        if (value == JsonToken.VALUE_STRING) {
                            subject = p.getText();
                        } else if (value != JsonToken.VALUE_NULL && !isLong(p)) {
                            return null;
                        }
                    }
                    case "exp", "nbf", "iat" -> {
                        Long millis = null;
                        if (value != JsonToken.VALUE_NULL) {
                            if (!isLong(p) || p.getLongValue() > Long.MAX_VALUE / 1000
                                    || p.getLongValue() < Long.MIN_VALUE / 1000) {
                                return null; // Nimbus's seconds-to-milliseconds would overflow
                            }
                            millis = p.getLongValue() * 1000;
                        }
                        switch (name) {
                            case "exp" -> exp = millis;
                            case "nbf" -> nbf = millis;
                            default -> iat = millis;
                        }
                    }
                    case "iss" -> {
                        if (value == JsonToken.VALUE_STRING) {
                            issuer = p.getText();
                        } else if (value != JsonToken.VALUE_NULL) {
                            return null;
                        }
                    }
                    case "jti" -> {
                        if (value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL) {
                            return null;
                        }
                    }
                    case "aud" -> {
                        if (value == JsonToken.START_ARRAY) {
                            JsonToken item;
                            while ((item = p.nextToken()) == JsonToken.VALUE_STRING || item == JsonToken.VALUE_NULL) {
                                // any audience: the service checks none
                            }
                            if (item != JsonToken.END_ARRAY) {
                                return null;
                            }
                        } else if (value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL) {
                            return null;
                        }
                    }
                    case "roles" -> {
                        if (value == JsonToken.START_ARRAY) {
                            List<String> list = new ArrayList<>();
                            while (p.nextToken() == JsonToken.VALUE_STRING) {
                                list.add(p.getText());
                            }
                            if (p.currentToken() != JsonToken.END_ARRAY) {
                                return null;
                            }
                            roles = list.isEmpty() ? Set.of() : Set.copyOf(new HashSet<>(list));
                        } else if (value != JsonToken.VALUE_NULL) {
                            return null;
                        }
                    }
                    default -> {
                        if (!skipPlain(p, value)) {
                            return null;
                        }
                    }
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        return new TokenClaims(subject, exp, nbf, iat, issuer, roles);
    }

    /** Whether the current token is an integer within a long (what Nimbus's JSON layer reads as a long). */
    private static boolean isLong(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            return false;
        }
        JsonParser.NumberType type = p.getNumberType();
        return type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG;
    }

    /** Skips the value that starts at {@code first}; false if it holds a number other than a long, or nests deeply. */
    private static boolean skipPlain(JsonParser p, JsonToken first) throws IOException {
        int depth = 0;
        JsonToken t = first;
        while (true) {
            if (t == null) {
                return false;
            }
            if (t.isStructStart()) {
                if (++depth > MAX_DEPTH) {
                    return false;
                }
            } else if (t.isStructEnd()) {
                depth--;
            } else if (t.isNumeric() && !isLong(p)) {
                return false;
            }
            if (depth == 0) {
                return true;
            }
            t = p.nextToken();
        }
    }
}
