package org.boxoffice.bench.probe;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.load.ShowPlan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What shows cost the service's heap, measured with class histograms of the running service
 * (each one after a full collection) before and after creating shows and drawing their seat maps
 * (which loads every block of a show into the grid).
 *
 * <p>Two figures: the inventory of one 60,000-seat show (its {@code SeatBlock} values: the count
 * is measured, the bytes are the measured shallow size plus the three per-seat arrays each block
 * holds), and the whole heap growth for that show and per 100 shows (everything the service keeps
 * per show: inventory, seat-map snapshot, layout, catalog entries). With one member there are no
 * backup copies, so the inventory figure is one replica's.
 */
public final class HeapFootprint {

    public static final String SEAT_BLOCK = "org.boxoffice.domain.SeatBlock";
    public static final String HOLD_SLOT = "org.boxoffice.domain.SeatBlock$HoldSlot";
    static final int STADIUM_SEATS = 60_000;

    /**
     * @param inventoryBytes     the stadium show's SeatBlock values with their per-seat arrays
     * @param heapGrowthBytes    live heap growth for the stadium show, everything included
     * @param perHundredShowsBytes live heap growth per 100 shows of {@code seatsPerShow} seats (measured over {@code showsMeasured})
     */
    public record Result(int stadiumSeats, int stadiumBlocks, long seatBlocksAdded, long inventoryBytes,
                         long heapGrowthBytes, int showsMeasured, int seatsPerShow, long perHundredShowsBytes) {
    }

    private HeapFootprint() {
    }

    public static Result measure(Path jcmd, long pid, BoxofficeApi api, String adminToken, String eventId,
                                 int showsToMeasure, int seatsPerShow) throws IOException, InterruptedException {
        ClassHistogram before = ClassHistogram.of(jcmd, pid);
        JsonNode stadium = createAndTouch(api, adminToken, eventId, STADIUM_SEATS);
        Thread.sleep(1_000);
        ClassHistogram afterStadium = ClassHistogram.of(jcmd, pid);

        List<Integer> blockSizes = blockSizes(api.show(stadium.path("showId").asText()));
        long seatBlocks = afterStadium.count(SEAT_BLOCK) - before.count(SEAT_BLOCK);
        long shallow = afterStadium.count(SEAT_BLOCK) == 0 ? 0
                : afterStadium.bytes(SEAT_BLOCK) / afterStadium.count(SEAT_BLOCK);
        long inventory = 0;
        for (int n : blockSizes) {
            inventory += shallow + arrayBytes(n, 1) + arrayBytes(n, 4) + arrayBytes(n, 8);
        }

        for (int i = 0; i < showsToMeasure; i++) {
            createAndTouch(api, adminToken, eventId, seatsPerShow);
        }
        Thread.sleep(1_000);
        ClassHistogram afterMany = ClassHistogram.of(jcmd, pid);
        long perShow = showsToMeasure == 0 ? 0 : (afterMany.totalBytes() - afterStadium.totalBytes()) / showsToMeasure;
        return new Result(STADIUM_SEATS, blockSizes.size(), seatBlocks, inventory,
                afterStadium.totalBytes() - before.totalBytes(), showsToMeasure, seatsPerShow, perShow * 100);
    }

    /** A Java array's size with compressed class pointers: 16-byte header, 8-byte alignment. */
    static long arrayBytes(int length, int elementBytes) {
        long raw = 16L + (long) length * elementBytes;
        return (raw + 7) / 8 * 8;
    }

    private static JsonNode createAndTouch(BoxofficeApi api, String adminToken, String eventId, int seats) throws IOException {
        JsonNode created = api.createShow(adminToken,
                ShowPlan.createRequest(eventId, ShowPlan.regularSections(seats), ShowPlan.HOLD_SECONDS, null, null));
        try (HttpConnection c = api.connect()) {
            c.get("/v1/shows/" + created.path("showId").asText() + "/availability", null).expect(200, "seat map");
        }
        return created;
    }

    private static List<Integer> blockSizes(JsonNode show) {
        List<Integer> sizes = new ArrayList<>();
        for (JsonNode block : show.path("layout").path("blocks")) {
            int n = 0;
            for (JsonNode row : block.path("rows")) {
                n += row.path("seats").asInt();
            }
            sizes.add(n);
        }
        return sizes;
    }
}
