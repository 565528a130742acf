package org.boxoffice.bench.reads;

import org.boxoffice.bench.http.HttpResponse;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The on-sale mix's proportions, its crowd of fans and the ETag each fan keeps. */
class OnSaleMixTest {

    private static final int[] WEIGHTS = {80, 13, 5, 2};

    @Test
    void everyHundredRequests_followTheWeights() {
        OnSaleMix mix = new OnSaleMix("s", "e", List.of("/v1/events", "/v1/events?q=x"), 2, 1_000, 2.0, WEIGHTS, 1);
        Map<String, Integer> kinds = new HashMap<>();
        for (int i = 0; i < 100; i++) {
            kinds.merge(mix.next(1).kind(), 1, Integer::sum);
        }
        assertEquals(Map.of(OnSaleMix.POLL, 80, OnSaleMix.SHOW, 13, OnSaleMix.SEARCH, 5, OnSaleMix.EVENT, 2), kinds);
    }

    @Test
    void eachConnection_pollsEnoughFansThatEachPollsOncePerInterval() {
        // 1,000 req/s, 80 % polls, 4 connections: 200 polls/s each, so 400 fans each for a 2 s interval
        assertEquals(400, new OnSaleMix("s", "e", List.of("/v1/events"), 4, 1_000, 2.0, WEIGHTS, 1).fansPerConnection());
    }

    @Test
    void aFan_sendsTheETagOfTheLastMapItGot() {
        // one poll every 2 s on one connection: one fan
        OnSaleMix mix = new OnSaleMix("s", "e", List.of("/v1/events"), 1, 0.5, 2.0, new int[]{100, 0, 0, 0}, 1);
        assertEquals(1, mix.fansPerConnection());
        ReadLoad.Request first = mix.next(0);
        assertNull(first.ifNoneMatch(), "a new fan has no map yet");
        mix.answered(0, first, new HttpResponse(200, new byte[0], "\"v1\""));
        ReadLoad.Request second = mix.next(0);
        assertEquals("\"v1\"", second.ifNoneMatch());
        mix.answered(0, second, new HttpResponse(304, new byte[0], "\"v1\""));
        assertEquals("\"v1\"", mix.next(0).ifNoneMatch());
        assertEquals("/v1/shows/s/availability", second.path());
    }

    @Test
    void weights_mustSumToAHundred() {
        assertThrows(IllegalArgumentException.class,
                () -> new OnSaleMix("s", "e", List.of("/v1/events"), 1, 1, 2.0, new int[]{80, 10, 5, 1}, 1));
    }
}
