package org.boxoffice.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class OpenLoopRunTest {

    @Test
    void areaLeft_readsTheSoldAreaOutOfTheAreasAnswer() throws Exception {
        var areas = new ObjectMapper().readTree("""
                {"showId":"S1","areas":[{"name":"BALCONY","capacity":50,"price":30.00,"left":50},
                {"name":"FLOOR","capacity":2000,"price":59.00,"left":17}]}""");
        assertEquals(17, OpenLoopRun.areaLeft(areas, "FLOOR"));
        assertNull(OpenLoopRun.areaLeft(areas, "PIT"));
    }

    @Test
    void admissionsBody_asksForTheAreaByCount() {
        Target t = new Target("boxoffice", "127.0.0.1", 8080, "S1", ShowPlan.of(ShowPlan.regularSections(100)), "FLOOR");
        assertEquals("{\"area\":\"FLOOR\",\"quantity\":3}", t.admissionsBody(3));
        assertEquals("/v1/shows/S1/areas", t.areasPath());
    }
}
