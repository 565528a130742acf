package org.boxoffice.bench.probe;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ClassHistogramTest {

    @Test
    void parse_readsJcmdOutput() {
        ClassHistogram h = ClassHistogram.parse("""
                12345:
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:         20000        2400000  [B (java.base@25.0.3)
                   2:           240          11520  org.boxoffice.domain.SeatBlock
                   3:            10            400  org.boxoffice.domain.SeatBlock$HoldSlot
                Total         20250        2411920
                """);
        assertEquals(2_411_920, h.totalBytes());
        assertEquals(240, h.count(HeapFootprint.SEAT_BLOCK));
        assertEquals(400, h.bytes(HeapFootprint.HOLD_SLOT));
        assertEquals(2_400_000, h.bytes("[B"));
        assertEquals(0, h.bytes("absent"));
    }

    @Test
    void parse_refusesOtherOutput() {
        assertThrows(IllegalArgumentException.class, () -> ClassHistogram.parse("12345:\nCould not attach"));
    }

    @Test
    void arrayBytes_countsTheHeaderAndAlignment() {
        assertEquals(272, HeapFootprint.arrayBytes(250, 1));
        assertEquals(1_016, HeapFootprint.arrayBytes(250, 4));
        assertEquals(2_016, HeapFootprint.arrayBytes(250, 8));
    }
}
