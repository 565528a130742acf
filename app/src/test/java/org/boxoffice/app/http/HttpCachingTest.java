package org.boxoffice.app.http;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** If-None-Match matching, ETags and cache lifetimes, without a server. */
class HttpCachingTest {

    private static final String TAG = "\"abc\"";

    @Test
    void ifNoneMatch_matchesTheTag_weakOrStrong_anywhereInAList() {
        assertTrue(HttpCaching.notModified("\"abc\"", TAG));
        assertTrue(HttpCaching.notModified("W/\"abc\"", TAG));
        assertTrue(HttpCaching.notModified("\"x\", \"abc\"", TAG));
        assertTrue(HttpCaching.notModified("\"x\",W/\"abc\" ,\"y\"", TAG));
        assertTrue(HttpCaching.notModified("\"a,b\", \"abc\"", TAG), "a comma inside a tag is part of it");
    }

    @Test
    void ifNoneMatch_star_matchesAnyCurrentAnswer() {
        assertTrue(HttpCaching.notModified("*", TAG));
        assertTrue(HttpCaching.notModified(" * ", TAG));
    }

    @Test
    void ifNoneMatch_doesNotMatch_otherTags_prefixes_orGarbage() {
        assertFalse(HttpCaching.notModified(null, TAG));
        assertFalse(HttpCaching.notModified("", TAG));
        assertFalse(HttpCaching.notModified("\"ab\"", TAG));
        assertFalse(HttpCaching.notModified("\"abcd\"", TAG));
        assertFalse(HttpCaching.notModified("abc", TAG), "unquoted is not an entity tag");
        assertFalse(HttpCaching.notModified("\"abc", TAG), "unterminated");
        assertFalse(HttpCaching.notModified("\"x\", \"y\"", TAG));
    }

    @Test
    void etag_namesTheBytes() {
        HttpCaching.Encoded a = HttpCaching.Encoded.json(Map.of("a", 1));
        HttpCaching.Encoded same = HttpCaching.Encoded.json(Map.of("a", 1));
        HttpCaching.Encoded other = HttpCaching.Encoded.json(Map.of("a", 2));
        assertEquals(a.etag(), same.etag());
        assertNotEquals(a.etag(), other.etag());
        assertTrue(a.etag().matches("\"[A-Za-z0-9_-]{16}\""), a.etag());
    }

    @Test
    void gzip_isAccepted_byNameOrStar_unlessItsWeightIsZero() {
        assertTrue(HttpCaching.acceptsGzip("gzip"));
        assertTrue(HttpCaching.acceptsGzip("gzip, deflate, br"));
        assertTrue(HttpCaching.acceptsGzip("br;q=1.0, GZIP;q=0.5"));
        assertTrue(HttpCaching.acceptsGzip("*"));
        assertFalse(HttpCaching.acceptsGzip(null));
        assertFalse(HttpCaching.acceptsGzip("identity"));
        assertFalse(HttpCaching.acceptsGzip("gzip;q=0"));
        assertFalse(HttpCaching.acceptsGzip("gzip;q=0.000, br"));
        assertFalse(HttpCaching.acceptsGzip("x-gzip2"));
    }

    @Test
    void theGzippedCopy_isTheSameBytes_underAnETagOfItsOwn() throws Exception {
        HttpCaching.Encoded big = HttpCaching.Encoded.json(Map.of("data", "A".repeat(20_000)));
        assertTrue(big.compressible());
        assertTrue(big.gzip().length < big.body().length / 10, "a seat map of free seats compresses well");
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(big.gzip()))) {
            assertArrayEquals(big.body(), in.readAllBytes());
        }
        assertEquals(big.etag().substring(0, big.etag().length() - 1) + "-gz\"", big.gzipEtag());
        assertFalse(HttpCaching.Encoded.json(Map.of("a", 1)).compressible(), "small bodies go as they are");
    }

    @Test
    void policy_isCappedByWhenTheContentExpires() {
        HttpCaching.Policy p = new HttpCaching.Policy(30, 60);
        assertEquals("public, max-age=30, stale-while-revalidate=60", p.header());
        assertEquals(p, p.atMost(Long.MAX_VALUE));
        assertEquals("public, max-age=7, stale-while-revalidate=7", p.atMost(7).header());
        assertEquals("public, max-age=0, stale-while-revalidate=0", p.atMost(0).header());
    }
}
