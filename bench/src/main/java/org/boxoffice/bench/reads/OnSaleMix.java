package org.boxoffice.bench.reads;

import org.boxoffice.bench.http.HttpResponse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The reads of an on-sale as one stream: most requests are seat-map polls, each by a fan who sends
 * the ETag of the map they hold (If-None-Match) every {@code pollSeconds}; then show pages, then
 * search and event pages. Each connection stands for a fixed crowd of fans it polls in turn, sized
 * so every fan polls once per {@code pollSeconds} when the connection keeps its pace. A fan that
 * gets a 200 keeps the new ETag, as the web app does.
 *
 * <p>Not thread-safe across connections sharing an index; each connection's state is its own.
 */
public final class OnSaleMix implements ReadLoad.Source {

    public static final String POLL = "mix: seat-map poll";
    public static final String SHOW = "mix: show page";
    public static final String SEARCH = "mix: search";
    public static final String EVENT = "mix: event page";

    private final String pollPath;
    private final ReadLoad.Request show;
    private final List<ReadLoad.Request> search;
    private final ReadLoad.Request event;
    private final String[][] etags;
    private final int[] nextFan;
    private final int[] searchTurn;
    private final long[] turn;
    private final char[][] pattern;

    /**
     * @param perSecond the total rate the mix runs at (polls are {@code pollShare} of it)
     * @param weights   requests of each kind per 100: polls, shows, searches, events (summing to 100)
     */
    public OnSaleMix(String showId, String eventId, List<String> searches, int connections, double perSecond,
                     double pollSeconds, int[] weights, long seed) {
        if (weights.length != 4 || weights[0] + weights[1] + weights[2] + weights[3] != 100) {
            throw new IllegalArgumentException("weights are 4 numbers summing to 100");
        }
        this.pollPath = "/v1/shows/" + showId + "/availability";
        this.show = new ReadLoad.Request(SHOW, "/v1/shows/" + showId, null);
        this.search = searches.stream().map(p -> new ReadLoad.Request(SEARCH, p, null)).toList();
        this.event = new ReadLoad.Request(EVENT, "/v1/events/" + eventId, null);
        double pollsPerConnection = perSecond * weights[0] / 100.0 / connections;
        int fans = Math.max(1, (int) Math.round(pollsPerConnection * pollSeconds));
        this.etags = new String[connections][fans];
        this.nextFan = new int[connections];
        this.searchTurn = new int[connections];
        this.turn = new long[connections];
        this.pattern = new char[connections][];
        Random random = new Random(seed);
        for (int c = 0; c < connections; c++) {
            List<Character> slots = new ArrayList<>();
            char[] kinds = {'p', 's', 'q', 'e'};
            for (int k = 0; k < 4; k++) {
                for (int i = 0; i < weights[k]; i++) {
                    slots.add(kinds[k]);
                }
            }
            Collections.shuffle(slots, random);
            pattern[c] = new char[slots.size()];
            for (int i = 0; i < slots.size(); i++) {
                pattern[c][i] = slots.get(i);
            }
        }
    }

    /** Fans per connection (each polls once per poll interval at the mix's pace). */
    public int fansPerConnection() {
        return etags[0].length;
    }

    @Override
    public ReadLoad.Request next(int c) {
        char kind = pattern[c][(int) (turn[c]++ % pattern[c].length)];
        return switch (kind) {
            case 'p' -> {
                int fan = nextFan[c];
                nextFan[c] = (fan + 1) % etags[c].length;
                yield new ReadLoad.Request(POLL, pollPath, etags[c][fan]);
            }
            case 's' -> show;
            case 'q' -> search.get(searchTurn[c]++ % search.size());
            default -> event;
        };
    }

    @Override
    public void answered(int c, ReadLoad.Request request, HttpResponse response) {
        if (request.kind().equals(POLL) && response.status() == 200 && response.etag() != null) {
            // the fan polled was the one before nextFan
            int fan = (nextFan[c] - 1 + etags[c].length) % etags[c].length;
            etags[c][fan] = response.etag();
        }
    }
}
