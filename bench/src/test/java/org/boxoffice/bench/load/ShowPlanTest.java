package org.boxoffice.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ShowPlanTest {

    @Test
    void regularSections_fillSectionsOf50By50_andRoundTheLastUpToWholeRows() {
        List<ShowPlan.SectionSpec> sections = ShowPlan.regularSections(20_000);
        assertEquals(8, sections.size());
        assertEquals("A", sections.get(0).name());
        assertEquals("H", sections.get(7).name());
        List<ShowPlan.SectionSpec> odd = ShowPlan.regularSections(2_530);
        assertEquals(2, odd.size());
        assertEquals(1, odd.get(1).rows());
        assertEquals(60_000, ShowPlan.of(ShowPlan.regularSections(60_000)).seatCount());
        assertEquals("AA", ShowPlan.sectionName(26));
    }

    @Test
    void seatIdsAndIndexes_roundTripInLayoutOrder() {
        ShowPlan plan = ShowPlan.of(ShowPlan.regularSections(5_000));
        assertEquals(0, plan.indexOf("A-1-1"));
        assertEquals(50, plan.indexOf("A-2-1"));
        assertEquals(2_500, plan.indexOf("B-1-1"));
        for (int i = 0; i < plan.seatCount(); i++) {
            assertEquals(i, plan.indexOf(plan.seatId(i)));
        }
    }

    @Test
    void indexOf_isMinusOne_forSeatsTheShowDoesNotHave() {
        ShowPlan plan = ShowPlan.of(ShowPlan.regularSections(2_500));
        for (String id : List.of("A-1-51", "A-1-0", "A-51-1", "Z-1-1", "A-1", "A1", "A-x-1", "A-1-x", "")) {
            assertEquals(-1, plan.indexOf(id), id);
        }
    }

    @Test
    void fromShow_readsTheLayoutTheServiceReturns_blocksSplittingASection() throws Exception {
        JsonNode show = new ObjectMapper().readTree("""
                {"sections":[{"name":"B","rank":1},{"name":"A","rank":0}],
                 "layout":{"blocks":[
                   {"blockId":0,"section":"A","rows":[{"row":"1","seats":3},{"row":"2","seats":3}]},
                   {"blockId":1,"section":"A","rows":[{"row":"3","seats":3}]},
                   {"blockId":2,"section":"B","rows":[{"row":"1","seats":2}]}]}}""");
        ShowPlan plan = ShowPlan.fromShow(show);
        assertEquals(11, plan.seatCount());
        assertEquals(6, plan.indexOf("A-3-1"));
        assertEquals(9, plan.indexOf("B-1-1"));
        assertEquals("A", plan.sectionsByRank().get(0).name());
        assertEquals(9, plan.section("A").seatCount());
        assertEquals("B-1-2", plan.seatId(10));
    }
}
