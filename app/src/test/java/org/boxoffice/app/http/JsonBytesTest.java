package org.boxoffice.app.http;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonBytesTest {

    @Test
    void writesTheSameBytesAsTheServicesMapper_forEveryKindOfCharacter() throws Exception {
        assertSameAsMapper("quote\" back\\slash \n\r\t\b\f \u0001\u001f control, ünïcödé €, </script>");
    }

    @Test
    void writesCharactersBeyondTheBasicPlane_asTheSameString() throws Exception {
        byte[] written = new JsonBytes().field("message", "clef 𝄞").toBytes();
        assertEquals(Map.of("message", "clef 𝄞"), Json.MAPPER.readValue(written, Map.class));
    }

    private static void assertSameAsMapper(String tricky) throws Exception {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("error", "SEATS_UNAVAILABLE");
        expected.put("message", tricky);
        expected.put("unavailable", List.of("A-1-1", tricky));
        expected.put("alternatives", List.of(List.of("A-1-5", "A-1-6"), List.of(), List.of(tricky)));

        byte[] written = new JsonBytes()
                .field("error", "SEATS_UNAVAILABLE")
                .field("message", tricky)
                .field("unavailable", List.of("A-1-1", tricky))
                .fieldOfLists("alternatives", List.of(List.of("A-1-5", "A-1-6"), List.of(), List.of(tricky)))
                .toBytes();

        assertEquals(new String(Json.MAPPER.writeValueAsBytes(expected), StandardCharsets.UTF_8),
                new String(written, StandardCharsets.UTF_8));
        assertEquals(expected, Json.MAPPER.readValue(written, Map.class));
    }

    @Test
    void aHoldView_isWrittenAsTheMapperWritesIt() throws Exception {
        var view = new org.boxoffice.app.holds.HoldView("H1", "show-1", "alice", List.of("A-1-1", "A-1-2"), org.boxoffice.domain.HoldState.HELD,
                java.time.Instant.parse("2026-12-01T12:00:00Z"), new java.math.BigDecimal("178.00"), "EUR");
        var withMillis = new org.boxoffice.app.holds.HoldView("H2", "s", "b", List.of(), org.boxoffice.domain.HoldState.HELD,
                java.time.Instant.ofEpochMilli(1_764_590_400_123L), java.math.BigDecimal.valueOf(5, 2), "EUR");

        assertEquals(Json.MAPPER.writeValueAsString(view), new String(view.json(), StandardCharsets.UTF_8));
        assertEquals(Json.MAPPER.writeValueAsString(withMillis), new String(withMillis.json(), StandardCharsets.UTF_8));
        var admissions = new org.boxoffice.app.holds.HoldView("H3", "s", "c", List.of(), "FLOOR", 2,
                org.boxoffice.domain.HoldState.HELD, java.time.Instant.parse("2026-12-01T12:00:00Z"),
                new java.math.BigDecimal("90.00"), "EUR");
        assertEquals(Json.MAPPER.writeValueAsString(admissions), new String(admissions.json(), StandardCharsets.UTF_8));
        var offer = new org.boxoffice.app.holds.HoldView("W4", "s", "d", List.of("A-1-1"), org.boxoffice.domain.HoldState.HELD,
                java.time.Instant.ofEpochSecond(1_900_000_000L), new java.math.BigDecimal("45.00"), "EUR");
        assertEquals(Json.MAPPER.writeValueAsString(offer), new String(offer.json(), StandardCharsets.UTF_8));
        assertTrue(new String(offer.json(), StandardCharsets.UTF_8).endsWith(",\"origin\":\"waitlist-offer\"}"));
        assertTrue(new String(view.json(), StandardCharsets.UTF_8).endsWith(",\"origin\":\"fan\"}"));
    }

    @Test
    void writesAnEmptyListAsAnEmptyArray() {
        assertEquals("{\"unavailable\":[],\"alternatives\":[]}", new String(new JsonBytes()
                .field("unavailable", List.of()).fieldOfLists("alternatives", List.of()).toBytes(), StandardCharsets.UTF_8));
    }
}
