package org.boxoffice.bench;

import org.boxoffice.bench.report.TargetCheck;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WarmMembersTest {

    private static WarmMembers.Start start(String mode, double ready, Double to80) {
        return new WarmMembers.Start(mode, ready, 1.0, to80, 700, 10, 30, List.of());
    }

    @Test
    void theTarget_isTheRehearsedMembers_withTheOtherStartsBesideIt() {
        List<TargetCheck> t = WarmMembers.targets(List.of(start("no AOT cache", 10.5, 25.0), start("AOT cache", 5.1, 24.0),
                start("AOT + rehearsal", 24.7, 4.0)));

        assertEquals(List.of(new TargetCheck("fresh member at 80 % of its steady rate (AOT cache + rehearsal)", "<= 10 s",
                "4 s (ready 24.7 s after start; none 25 s, the cache alone 24 s)", true)), t);
    }

    @Test
    void aRehearsedMemberSlowerThanTheGoal_orNeverAt80Percent_missesIt() {
        assertEquals(false, WarmMembers.targets(List.of(start("AOT + rehearsal", 20, 11.0))).get(0).met());
        TargetCheck never = WarmMembers.targets(List.of(start("rehearsal", 20, null))).get(0);
        assertEquals(false, never.met());
        assertEquals("never (ready 20.0 s after start)", never.measured());
        assertEquals("fresh member at 80 % of its steady rate (rehearsal)", never.target());
    }

    @Test
    void withoutARehearsedStart_thereIsNoTarget() {
        assertEquals(List.of(), WarmMembers.targets(List.of(start("no AOT cache", 10, 20.0))));
    }
}
