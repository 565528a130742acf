package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionTest {

    @Test
    void permutation_isAPermutation_repeatableForASeed_andDifferentAcrossSeeds() {
        int[] a = Admission.permutation(42, 10_000);
        int[] sorted = a.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            assertEquals(i, sorted[i]);
        }
        assertArrayEquals(a, Admission.permutation(42, 10_000));
        assertFalse(Arrays.equals(a, Admission.permutation(43, 10_000)));
    }

    @Test
    void permutation_isUniform_firstPlaceSpreadsOverEveryone() {
        int n = 5;
        int[] firsts = new int[n];
        for (long seed = 0; seed < 50_000; seed++) {
            firsts[Admission.permutation(seed, n)[0]]++;
        }
        for (int count : firsts) {
            assertTrue(Math.abs(count - 10_000) < 600, Arrays.toString(firsts));
        }
    }

    @Test
    void admitNow_isCappedByRateSeatsAndQueue() {
        assertEquals(5, Admission.admitNow(5.7, 1_000, 10_000, 2, 0), "rate");
        assertEquals(3, Admission.admitNow(50, 1_000, 10, 2, 2), "seats: 10/2 - 2 outstanding");
        assertEquals(0, Admission.admitNow(50, 1_000, 3, 2, 5), "seats spoken for");
        assertEquals(4, Admission.admitNow(50, 4, 10_000, 2, 0), "queue");
    }

    @Test
    void accrue_earnsAtTheRate_butBanksAtMostOneSecond() {
        assertEquals(2.5, Admission.accrue(0, 10, 250), 1e-9);
        assertEquals(10, Admission.accrue(0, 10, 60_000), 1e-9);
        assertEquals(1.0, Admission.accrue(0.5, 0.5, 10_000), 1e-9);
    }
}
