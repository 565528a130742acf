package org.boxoffice.app.payments;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Signs and verifies webhook bodies: HMAC-SHA256 over the exact body bytes with the secret shared
 * with the provider, sent as {@code Boxoffice-Signature: sha256=<hex>}. The provider signs, the
 * service verifies; one class serves both so they cannot drift apart. Thread-safe.
 */
public final class WebhookSignature {

    public static final String HEADER = "Boxoffice-Signature";
    private static final String PREFIX = "sha256=";
    private static final int MIN_SECRET_BYTES = 16;

    private final SecretKeySpec key;

    public WebhookSignature(String secret) {
        if (secret == null || secret.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the webhook secret (boxoffice.payments.webhooksecret) needs at least "
                    + MIN_SECRET_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** The header value for {@code body}. */
    public String sign(byte[] body) {
        return PREFIX + HexFormat.of().formatHex(mac(body));
    }

    /** Whether {@code header} is the signature of {@code body}; false for a missing or malformed header. */
    public boolean verify(byte[] body, String header) {
        if (header == null || !header.startsWith(PREFIX) || header.length() != PREFIX.length() + 64) {
            return false;
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(header, PREFIX.length(), header.length());
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(given, mac(body));
    }

    private byte[] mac(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
