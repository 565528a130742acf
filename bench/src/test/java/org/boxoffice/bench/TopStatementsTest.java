package org.boxoffice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.boxoffice.mapstore.EmbeddedDatabase.StatementTotals;
import org.junit.jupiter.api.Test;

/** A run's statements are the difference of two readings, the costliest first. */
class TopStatementsTest {

    @Test
    void theRunsOwnCallsAndTime_costliestFirst_statementsWithoutCallsInTheRunLeftOut() {
        List<StatementTotals> before = List.of(
                new StatementTotals("SELECT apply_seat_transitions($1)", 100, 500.0),
                new StatementTotals("SELECT 1", 10, 1.0),
                new StatementTotals("COMMIT", 50, 20.0));
        List<StatementTotals> after = List.of(
                new StatementTotals("SELECT apply_seat_transitions($1)", 300, 1_500.0),
                new StatementTotals("SELECT 1", 10, 1.0),
                new StatementTotals("COMMIT", 450, 420.0),
                new StatementTotals("INSERT INTO idempotency_replies\n   VALUES ($1)", 40, 2_000.0));

        String text = Database.topStatements(before, after, 10);

        String[] lines = text.split("\n");
        assertTrue(lines[0].contains("3,400 ms of execution in all"), text);
        assertEquals(4, lines.length, "three statements ran in the run: " + text);
        assertTrue(lines[1].contains("2,000 ms") && lines[1].contains("40 calls") && lines[1].contains("50.000 ms a call")
                && lines[1].endsWith("INSERT INTO idempotency_replies VALUES ($1)"), lines[1]);
        assertTrue(lines[2].contains("1,000 ms") && lines[2].contains("200 calls") && lines[2].contains("apply_seat_transitions"), lines[2]);
        assertTrue(lines[3].contains("400 ms") && lines[3].contains("400 calls") && lines[3].endsWith("COMMIT"), lines[3]);
        assertFalse(text.contains("SELECT 1"), "no call in the run: " + text);
    }
}
