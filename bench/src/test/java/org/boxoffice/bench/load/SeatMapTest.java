package org.boxoffice.bench.load;

import org.junit.jupiter.api.Test;

import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SeatMapTest {

    @Test
    void decode_readsTwoBitsPerSeat_firstSeatInTheLowestBits() {
        // 0b11_10_01_00: seats 0..3 are AVAILABLE, HELD, SOLD, BLOCKED; seat 4 HELD
        String data = Base64.getEncoder().encodeToString(new byte[]{(byte) 0b11100100, 0b01});
        assertArrayEquals(new byte[]{0, 1, 2, 3, 1}, SeatMap.decode(data, 5));
    }

    @Test
    void encode_isTheInverseOfDecode() {
        byte[] statuses = new byte[1001];
        for (int i = 0; i < statuses.length; i++) {
            statuses[i] = (byte) ((i * 7 + i / 3) % 4);
        }
        assertArrayEquals(statuses, SeatMap.decode(SeatMap.encode(statuses), statuses.length));
    }

    @Test
    void decode_refusesDataOfAnotherShowSize() {
        String data = SeatMap.encode(new byte[100]);
        assertThrows(IllegalArgumentException.class, () -> SeatMap.decode(data, 200));
    }

    @Test
    void replaceFromResponse_readsTheDataFieldOfAnAvailabilityBody() {
        byte[] statuses = {0, 1, 0, 2, 3, 0};
        String body = "{\"showId\":\"s\",\"version\":\"7.2\",\"seatCount\":6,\"encoding\":\"2bit-base64\","
                + "\"data\":\"" + SeatMap.encode(statuses) + "\"}";
        SeatMap map = new SeatMap(6);
        map.replaceFromResponse(body.getBytes(java.nio.charset.StandardCharsets.US_ASCII), "\"s-7.2\"");
        assertEquals(3, map.freeCount());
        assertEquals(SeatMap.SOLD, map.status(3));
        assertEquals("\"s-7.2\"", map.etag());
        assertThrows(IllegalArgumentException.class, () -> new SeatMap(6).replaceFromResponse("{}".getBytes(), null));
    }

    @Test
    void freeCount_followsReplacementsAndLocalChanges() {
        SeatMap map = new SeatMap(4);
        assertEquals(4, map.freeCount());
        map.replace(new byte[]{0, 1, 2, 0}, "\"v1\"");
        assertEquals(2, map.freeCount());
        assertEquals("\"v1\"", map.etag());
        map.set(0, SeatMap.HELD);
        map.set(0, SeatMap.HELD);
        assertEquals(1, map.freeCount());
        map.set(1, SeatMap.AVAILABLE);
        map.set(2, SeatMap.HELD);
        assertEquals(2, map.freeCount());
    }
}
