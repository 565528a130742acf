package org.boxoffice.bench.baseline;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class Hs256Test {

    private final Hs256 jwt = new Hs256("0123456789abcdef0123456789abcdef");

    @Test
    void verify_returnsTheSubject_ofATokenItMinted() {
        assertEquals("buyer-7", jwt.verify(jwt.mint("buyer-7", 2_000), 1_000));
    }

    @Test
    void verify_refusesExpiredForeignAndTamperedTokens() {
        String token = jwt.mint("buyer-7", 2_000);
        assertNull(jwt.verify(token, 2_000));
        assertNull(new Hs256("another-secret-another-secret-xx").verify(token, 1_000));
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + new Hs256("another-secret-another-secret-xx").mint("admin", 2_000).split("\\.")[1]
                + "." + parts[2];
        assertNull(jwt.verify(forged, 1_000));
        assertNull(jwt.verify("not-a-token", 1_000));
    }
}
