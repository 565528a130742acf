package org.boxoffice.bench.baseline;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CountStrategyTest {

    @Test
    void stripes_matchBoxofficesDefault_andTheOneRowDesignHasOne() {
        assertEquals(1, CountStrategy.ONE_ROW.stripes(20_000));
        assertEquals(16, CountStrategy.STRIPED.stripes(20_000));
        assertEquals(16, CountStrategy.STRIPED.stripes(2_000));
        assertEquals(4, CountStrategy.STRIPED.stripes(100));
        assertEquals(1, CountStrategy.STRIPED.stripes(10));
    }

    @Test
    void systemNames_sayTheDesign() {
        assertEquals("pg-one-row", CountStrategy.ONE_ROW.systemName());
        assertEquals("pg-striped", CountStrategy.STRIPED.systemName());
    }
}
