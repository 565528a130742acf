package org.boxoffice.app.gates;

import org.boxoffice.domain.GateRepository;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Each show's Ed25519 key pair, made on first use and kept in PostgreSQL with the private key sealed
 * (AES-256-GCM, the show id as associated data) under a key derived from the ticket secret, the
 * secret that already refuses its public demo value outside demo mode. A show's pair never changes,
 * so it is cached. Thread-safe.
 */
public final class GateKeys {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int NONCE = 12;

    private final GateRepository store;
    private final SecretKeySpec sealing;
    private final LongSupplier clock;
    private final Map<String, KeyPair> cache = new ConcurrentHashMap<>();

    public GateKeys(GateRepository store, String ticketSecret, LongSupplier clock) {
        this.store = store;
        this.clock = clock;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(ticketSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            this.sealing = new SecretKeySpec(mac.doFinal("boxoffice gate keys".getBytes(StandardCharsets.UTF_8)), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The show's key pair; the caller has checked that the show exists. */
    public KeyPair of(String showId) {
        return cache.computeIfAbsent(showId, id -> {
            GateRepository.StoredKey stored = store.key(id).orElseGet(() -> store.keepKey(id, made(id), clock.getAsLong()));
            return open(id, stored);
        });
    }

    /** The show's public key. */
    public PublicKey publicKey(String showId) {
        return of(showId).getPublic();
    }

    private GateRepository.StoredKey made(String showId) {
        try {
            KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            byte[] nonce = new byte[NONCE];
            RANDOM.nextBytes(nonce);
            Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, sealing, new GCMParameterSpec(128, nonce));
            aes.updateAAD(showId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = aes.doFinal(pair.getPrivate().getEncoded());
            return new GateRepository.StoredKey(pair.getPublic().getEncoded(),
                    ByteBuffer.allocate(NONCE + sealed.length).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private KeyPair open(String showId, GateRepository.StoredKey stored) {
        try {
            Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
            byte[] sealed = stored.sealedKey();
            aes.init(Cipher.DECRYPT_MODE, sealing, new GCMParameterSpec(128, Arrays.copyOf(sealed, NONCE)));
            aes.updateAAD(showId.getBytes(StandardCharsets.UTF_8));
            byte[] pkcs8 = aes.doFinal(sealed, NONCE, sealed.length - NONCE);
            KeyFactory kf = KeyFactory.getInstance("Ed25519");
            PrivateKey priv = kf.generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(stored.publicKey()));
            return new KeyPair(pub, priv);
        } catch (GeneralSecurityException e) {
            // another ticket secret sealed it: the service cannot sign for this show
            throw new IllegalStateException("show " + showId + "'s gate key does not open with this ticket secret", e);
        }
    }
}
