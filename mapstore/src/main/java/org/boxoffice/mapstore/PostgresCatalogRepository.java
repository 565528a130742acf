package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.Venue;

import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * Venues, events and shows (with their layouts) on PostgreSQL.
 *
 * <p>Venues and events are upserted. {@link #saveShow} writes a show, its layout and one AVAILABLE
 * seat row per seat in one transaction; saving a show again updates its times and rules but never
 * its layout or seats, which live inventory depends on. Reads of all shows cost three queries,
 * however many shows and blocks there are. Thread-safe; one pooled connection per call.
 */
public final class PostgresCatalogRepository implements CatalogRepository {

    private static final String VENUES = "SELECT venue_id, name, city FROM venues ORDER BY venue_id";

    private static final String EVENTS = """
            SELECT event_id, title, artist, category, venue_id, description FROM events ORDER BY event_id""";

    private static final String SAVE_VENUE = """
            INSERT INTO venues (venue_id, name, city) VALUES (?, ?, ?)
            ON CONFLICT (venue_id) DO UPDATE SET name = excluded.name, city = excluded.city""";

    private static final String SAVE_EVENT = """
            INSERT INTO events (event_id, title, artist, category, venue_id, description)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (event_id) DO UPDATE SET title = excluded.title, artist = excluded.artist,
                category = excluded.category, venue_id = excluded.venue_id,
                description = excluded.description""";

    private static final String IS_EMPTY = """
            SELECT NOT EXISTS (SELECT 1 FROM venues) AND NOT EXISTS (SELECT 1 FROM events)
               AND NOT EXISTS (SELECT 1 FROM shows)""";

    private static final String SHOWS = """
            SELECT show_id, event_id, venue_id, epoch_ms(starts_at), epoch_ms(sale_opens_at),
                   epoch_ms(sale_closes_at), max_seats_per_hold, max_per_account, hold_millis,
                   grace_millis, block_groups, cancel_hours, currency
            FROM shows""";

    private static final String SECTIONS = "SELECT show_id, name, rank, price_cents FROM show_sections";

    private static final String BLOCKS = "SELECT show_id, block_id, section, rows, seats_in_row FROM show_blocks";

    private static final String ONE_SHOW = " WHERE show_id = ?";

    /** Returns whether the show was inserted (true) or already there (false). */
    private static final String SAVE_SHOW = """
            INSERT INTO shows (show_id, event_id, venue_id, starts_at, sale_opens_at, sale_closes_at,
                               max_seats_per_hold, max_per_account, hold_millis, grace_millis,
                               block_groups, cancel_hours, currency)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (show_id) DO UPDATE SET event_id = excluded.event_id,
                venue_id = excluded.venue_id, starts_at = excluded.starts_at,
                sale_opens_at = excluded.sale_opens_at, sale_closes_at = excluded.sale_closes_at,
                max_seats_per_hold = excluded.max_seats_per_hold,
                max_per_account = excluded.max_per_account, hold_millis = excluded.hold_millis,
                grace_millis = excluded.grace_millis, block_groups = excluded.block_groups,
                cancel_hours = excluded.cancel_hours
            RETURNING (xmax = 0)""";

    private static final String SAVE_SECTION = """
            INSERT INTO show_sections (show_id, name, ord, rank, price_cents) VALUES (?, ?, ?, ?, ?)""";

    private static final String SAVE_BLOCK = """
            INSERT INTO show_blocks (show_id, block_id, section, rows, seats_in_row) VALUES (?, ?, ?, ?, ?)""";

    /**
     * Every seat of a show from its blocks, in one statement: a seat's index in its block counts
     * the seats of the rows before it, rows in the order the block lists them.
     */
    private static final String CREATE_SEATS = """
            INSERT INTO seats (show_id, seat_id, block_id, idx, section, row_label, number, price_cents)
            SELECT b.show_id, b.section || '-' || r.row_label || '-' || n.number, b.block_id,
                   (r.first_idx + n.number - 1)::int, b.section, r.row_label, n.number, sec.price_cents
            FROM show_blocks b
            JOIN show_sections sec ON sec.show_id = b.show_id AND sec.name = b.section
            CROSS JOIN LATERAL (
                SELECT u.row_label, u.seats,
                       sum(u.seats) OVER (ORDER BY u.ord) - u.seats AS first_idx
                FROM unnest(b.rows, b.seats_in_row) WITH ORDINALITY AS u(row_label, seats, ord)
            ) r
            CROSS JOIN LATERAL generate_series(1, r.seats) AS n(number)
            WHERE b.show_id = ?""";

    private final DataSource dataSource;

    public PostgresCatalogRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public List<Venue> venues() {
        return query(VENUES, rs -> new Venue(rs.getString(1), rs.getString(2), rs.getString(3)));
    }

    @Override
    public List<Event> events() {
        return query(EVENTS, rs -> new Event(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getString(4), rs.getString(5), rs.getString(6)));
    }

    @Override
    public List<Show> shows() {
        try (Connection c = dataSource.getConnection()) {
            return loadShows(c, null);
        } catch (SQLException e) {
            throw new DatabaseException("loading shows", e);
        }
    }

    @Override
    public Optional<Show> show(String showId) {
        try (Connection c = dataSource.getConnection()) {
            return loadShows(c, showId).stream().findFirst();
        } catch (SQLException e) {
            throw new DatabaseException("loading show " + showId, e);
        }
    }

    @Override
    public boolean isEmpty() {
        return query(IS_EMPTY, rs -> rs.getBoolean(1)).get(0);
    }

    @Override
    public void saveVenue(Venue venue) {
        update(SAVE_VENUE, venue.venueId(), venue.name(), venue.city());
    }

    @Override
    public void saveEvent(Event event) {
        update(SAVE_EVENT, event.eventId(), event.title(), event.artist(), event.category(),
                event.venueId(), event.description() == null ? "" : event.description());
    }

    /**
     * @throws IllegalArgumentException if the show exists with another layout: its seats may be
     *                                  held or sold, so a layout never changes under them
     */
    @Override
    public void saveShow(Show show) {
        try (Connection c = dataSource.getConnection()) {
            boolean created = Transactions.inTransaction(c, t -> {
                boolean fresh = upsertShow(t, show);
                if (fresh) {
                    insertLayout(t, show);
                } else {
                    ShowLayout stored = loadShows(t, show.showId()).get(0).layout();
                    if (!sameLayout(stored, show.layout())) {
                        throw new IllegalArgumentException("show " + show.showId()
                                + " exists with another layout; layouts cannot change");
                    }
                }
                return fresh;
            });
            if (created) {
                // A show often goes on sale minutes after it is created, before autovacuum has
                // looked at its seats; without statistics the planner scans a whole block for
                // every claim. Sampling costs a fraction of a second, once per show.
                try (Statement s = c.createStatement()) {
                    s.execute("ANALYZE seats");
                }
            }
        } catch (SQLException e) {
            throw new DatabaseException("saving show " + show.showId(), e);
        }
    }

    private static boolean upsertShow(Connection c, Show show) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SAVE_SHOW)) {
            ps.setString(1, show.showId());
            ps.setString(2, show.eventId());
            ps.setString(3, show.venueId());
            ps.setObject(4, timestamp(show.startsAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(5, timestamp(show.sale().opensAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(6, timestamp(show.sale().closesAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setInt(7, show.policy().maxSeatsPerHold());
            ps.setInt(8, show.policy().maxPerAccount());
            ps.setLong(9, show.policy().holdMillis());
            ps.setLong(10, show.policy().graceMillis());
            ps.setInt(11, show.blockGroups());
            ps.setInt(12, show.cancelHours());
            ps.setString(13, show.currency());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static void insertLayout(Connection c, Show show) throws SQLException {
        ShowLayout layout = show.layout();
        try (PreparedStatement ps = c.prepareStatement(SAVE_SECTION)) {
            int ord = 0;
            for (ShowLayout.Section s : layout.sections()) {
                ps.setString(1, show.showId());
                ps.setString(2, s.name());
                ps.setInt(3, ord++);
                ps.setInt(4, s.rank());
                ps.setLong(5, s.priceCents());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement(SAVE_BLOCK)) {
            for (ShowLayout.Block b : layout.blocks()) {
                ps.setString(1, show.showId());
                ps.setInt(2, b.blockId());
                ps.setString(3, b.section());
                ps.setArray(4, c.createArrayOf("text", b.rows().toArray(String[]::new)));
                ps.setObject(5, b.seatsInRow());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement(CREATE_SEATS)) {
            ps.setString(1, show.showId());
            int created = ps.executeUpdate();
            if (created != layout.totalSeats()) {
                throw new IllegalStateException("show " + show.showId() + ": created " + created
                        + " seat rows for " + layout.totalSeats() + " seats");
            }
        }
    }

    /** Three queries for any number of shows: shows, then all their sections, then all their blocks. */
    private static List<Show> loadShows(Connection c, String showId) throws SQLException {
        Map<String, List<ShowLayout.Section>> sections = new HashMap<>();
        forEachRow(c, SECTIONS + where(showId) + " ORDER BY show_id, ord", showId, rs ->
                sections.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                        .add(new ShowLayout.Section(rs.getString(2), rs.getInt(3), rs.getLong(4))));
        Map<String, List<ShowLayout.Block>> blocks = new HashMap<>();
        forEachRow(c, BLOCKS + where(showId) + " ORDER BY show_id, block_id", showId, rs ->
                blocks.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                        .add(new ShowLayout.Block(rs.getInt(2), rs.getString(3),
                                List.of(PostgresInventoryRepository.strings(rs.getArray(4))),
                                ints(rs.getArray(5)))));
        List<Show> shows = new ArrayList<>();
        forEachRow(c, SHOWS + where(showId) + " ORDER BY show_id", showId, rs -> {
            String id = rs.getString(1);
            ShowLayout layout = new ShowLayout(id, rs.getString(13), sections.getOrDefault(id, List.of()),
                    blocks.getOrDefault(id, List.of()));
            shows.add(new Show(id, rs.getString(2), rs.getString(3), rs.getLong(4),
                    new SaleWindow(rs.getLong(5), rs.getLong(6)),
                    new HoldPolicy(rs.getInt(7), rs.getInt(8), rs.getLong(9), rs.getLong(10)),
                    rs.getInt(11), rs.getInt(12), layout));
        });
        return shows;
    }

    private static String where(String showId) {
        return showId == null ? "" : ONE_SHOW;
    }

    private static int[] ints(java.sql.Array array) throws SQLException {
        Object values = array.getArray();
        if (values instanceof int[] primitive) {
            return primitive;
        }
        return Arrays.stream((Integer[]) values).mapToInt(Integer::intValue).toArray();
    }

    private static boolean sameLayout(ShowLayout a, ShowLayout b) {
        return a.currency().equals(b.currency()) && a.sections().equals(b.sections())
                && a.blocks().equals(b.blocks());
    }

    // ---------------------------------------------------------------- plumbing

    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private interface RowConsumer {
        void accept(ResultSet rs) throws SQLException;
    }

    private static void forEachRow(Connection c, String sql, String param, RowConsumer consumer)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (param != null) {
                ps.setString(1, param);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    consumer.accept(rs);
                }
            }
        }
    }

    private <T> List<T> query(String sql, RowReader<T> reader) {
        try (Connection c = dataSource.getConnection()) {
            List<T> rows = new ArrayList<>();
            forEachRow(c, sql, null, rs -> rows.add(reader.read(rs)));
            return rows;
        } catch (SQLException e) {
            throw new DatabaseException("query failed: " + sql, e);
        }
    }

    private void update(String sql, Object... params) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("update failed: " + sql, e);
        }
    }
}
