package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The fast picker gives the same answers as the reference one, on random layouts and seat maps. */
class SeatPickerEquivalenceTest {

    @Test
    void fastPicker_agreesWithTheReference() {
        Random random = new Random(7);
        for (int round = 0; round < 300; round++) {
            List<ShowLayout.Section> sections = new ArrayList<>();
            List<ShowLayout.Block> blocks = new ArrayList<>();
            int sectionCount = 1 + random.nextInt(4);
            for (int s = 0; s < sectionCount; s++) {
                String name = "S" + s;
                sections.add(new ShowLayout.Section(name, s, 1000));
                int rows = 1 + random.nextInt(6);
                int row = 1;
                while (row <= rows) {
                    int inBlock = Math.min(rows - row + 1, 1 + random.nextInt(3));
                    List<String> labels = new ArrayList<>();
                    int[] counts = new int[inBlock];
                    for (int r = 0; r < inBlock; r++) {
                        labels.add(Integer.toString(row + r));
                        counts[r] = 1 + random.nextInt(12);
                    }
                    blocks.add(new ShowLayout.Block(blocks.size(), name, labels, counts));
                    row += inBlock;
                }
            }
            ShowLayout layout = new ShowLayout("s", "EUR", sections, blocks);
            boolean[] free = new boolean[layout.totalSeats()];
            double density = random.nextDouble();
            for (int i = 0; i < free.length; i++) {
                free[i] = random.nextDouble() < density;
            }
            SeatPicker fast = new SeatPicker(layout, g -> free[g]);
            NaiveSeatPicker reference = new NaiveSeatPicker(layout, g -> free[g]);
            for (int q = 1; q <= 4; q++) {
                String section = random.nextBoolean() ? null : "S" + random.nextInt(sectionCount);
                assertEquals(reference.bestAvailable(q, section).map(c -> c.seatIds()),
                        fast.bestAvailable(q, section).map(SeatPicker.Candidate::seatIds), "round " + round + " q " + q);
                ShowLayout.Seat anchor = layout.seat(random.nextInt(layout.totalSeats()));
                List<String> requested = new ArrayList<>();
                for (int k = 0; k < q && anchor.number() + k <= layout.blocks().get(anchor.blockId()).seatsInRow()[0] + 100; k++) {
                    String id = anchor.section() + "-" + anchor.row() + "-" + (anchor.number() + k);
                    if (layout.locate(id).isPresent()) {
                        requested.add(id);
                    }
                }
                assertEquals(reference.alternatives(requested, 3), fast.alternatives(requested, 3), "round " + round + " alternatives");
            }
        }
    }
}
