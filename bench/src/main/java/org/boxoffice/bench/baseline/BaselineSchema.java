package org.boxoffice.bench.baseline;

import org.boxoffice.bench.load.ShowPlan;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The PostgreSQL-only designs' tables, in their own schema {@value #SCHEMA} beside Boxoffice's: one
 * row per seat with its state, a holds table, a general-admission area's counter rows, and nothing else. Only the indexes those designs
 * need: the seat key, layout order for the seat map, and (section, row, number) for finding free
 * neighbours and best-available seats.
 */
public final class BaselineSchema {

    public static final String SCHEMA = "baseline";

    private BaselineSchema() {
    }

    /** Drops and recreates the schema: every bench run starts from empty tables. */
    public static void recreate(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            s.execute("CREATE SCHEMA " + SCHEMA);
            s.execute("""
                    CREATE TABLE baseline.shows (
                        show_id     text PRIMARY KEY,
                        strategy    text NOT NULL CHECK (strategy IN ('FOR_UPDATE', 'CONDITIONAL')),
                        hold_millis bigint NOT NULL
                    )""");
            s.execute("""
                    CREATE TABLE baseline.seats (
                        show_id    text NOT NULL,
                        seat_id    text NOT NULL,
                        idx        int NOT NULL,
                        section    text NOT NULL,
                        row_no     int NOT NULL,
                        number     int NOT NULL,
                        state      text NOT NULL DEFAULT 'AVAILABLE' CHECK (state IN ('AVAILABLE', 'HELD', 'SOLD', 'BLOCKED')),
                        hold_id    text,
                        holder     text,
                        held_until timestamptz,
                        version    int NOT NULL DEFAULT 0,
                        PRIMARY KEY (show_id, seat_id),
                        UNIQUE (show_id, idx)
                    )""");
            s.execute("CREATE INDEX seats_place ON baseline.seats (show_id, section, row_no, number)");
            s.execute("""
                    CREATE TABLE baseline.holds (
                        hold_id    text PRIMARY KEY,
                        show_id    text NOT NULL,
                        account_id text NOT NULL,
                        seat_ids   text[] NOT NULL,
                        expires_at timestamptz NOT NULL,
                        status     text NOT NULL CHECK (status IN ('ACTIVE', 'RELEASED', 'EXPIRED')),
                        created_at timestamptz NOT NULL,
                        area       text,
                        quantity   int
                    )""");
            s.execute("""
                    CREATE TABLE baseline.areas (
                        show_id     text NOT NULL,
                        area        text NOT NULL,
                        strategy    text NOT NULL CHECK (strategy IN ('ONE_ROW', 'STRIPED')),
                        stripes     int NOT NULL,
                        hold_millis bigint NOT NULL,
                        PRIMARY KEY (show_id, area)
                    )""");
            s.execute("""
                    CREATE TABLE baseline.area_counters (
                        show_id   text NOT NULL,
                        area      text NOT NULL,
                        stripe    int NOT NULL,
                        capacity  int NOT NULL,
                        remaining int NOT NULL CHECK (remaining >= 0 AND remaining <= capacity),
                        PRIMARY KEY (show_id, area, stripe)
                    )""");
        }
    }

    /**
     * Creates a general-admission area of {@code capacity} sold with {@code strategy}: its counter
     * rows ({@link CountStrategy#stripes}), the capacity spread evenly over them.
     */
    public static void createArea(Connection c, String showId, String area, CountStrategy strategy, int capacity,
                                  long holdMillis) throws SQLException {
        int stripes = strategy.stripes(capacity);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement a = c.prepareStatement(
                "INSERT INTO baseline.areas (show_id, area, strategy, stripes, hold_millis) VALUES (?, ?, ?, ?, ?)");
             PreparedStatement rows = c.prepareStatement("""
                     INSERT INTO baseline.area_counters (show_id, area, stripe, capacity, remaining)
                     SELECT ?, ?, i, ? / ? + CASE WHEN i < ? % ? THEN 1 ELSE 0 END, ? / ? + CASE WHEN i < ? % ? THEN 1 ELSE 0 END
                     FROM generate_series(0, ? - 1) AS i""")) {
            a.setString(1, showId);
            a.setString(2, area);
            a.setString(3, strategy.name());
            a.setInt(4, stripes);
            a.setLong(5, holdMillis);
            a.executeUpdate();
            int i = 1;
            rows.setString(i++, showId);
            rows.setString(i++, area);
            for (int k = 0; k < 2; k++) {
                rows.setInt(i++, capacity);
                rows.setInt(i++, stripes);
                rows.setInt(i++, capacity);
                rows.setInt(i++, stripes);
            }
            rows.setInt(i, stripes);
            rows.executeUpdate();
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    /** Creates a show with every seat of {@code plan} AVAILABLE, claimed with {@code strategy}. */
    public static void createShow(Connection c, String showId, ClaimStrategy strategy, long holdMillis, ShowPlan plan)
            throws SQLException {
        List<String> ids = new ArrayList<>();
        List<Integer> idx = new ArrayList<>();
        List<String> sections = new ArrayList<>();
        List<Integer> rows = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        for (ShowPlan.Section section : plan.sections()) {
            for (int r = 0; r < section.rows().size(); r++) {
                ShowPlan.Row row = section.rows().get(r);
                for (int n = 1; n <= row.seats(); n++) {
                    ids.add(section.name() + "-" + row.label() + "-" + n);
                    idx.add(row.offset() + n - 1);
                    sections.add(section.name());
                    rows.add(r + 1);
                    numbers.add(n);
                }
            }
        }
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement show = c.prepareStatement(
                "INSERT INTO baseline.shows (show_id, strategy, hold_millis) VALUES (?, ?, ?)");
             PreparedStatement seats = c.prepareStatement("""
                     INSERT INTO baseline.seats (show_id, seat_id, idx, section, row_no, number)
                     SELECT ?, s.* FROM unnest(?::text[], ?::int[], ?::text[], ?::int[], ?::int[]) AS s""")) {
            show.setString(1, showId);
            show.setString(2, strategy.name());
            show.setLong(3, holdMillis);
            show.executeUpdate();
            Array a1 = c.createArrayOf("text", ids.toArray());
            Array a2 = c.createArrayOf("int4", idx.toArray());
            Array a3 = c.createArrayOf("text", sections.toArray());
            Array a4 = c.createArrayOf("int4", rows.toArray());
            Array a5 = c.createArrayOf("int4", numbers.toArray());
            seats.setString(1, showId);
            seats.setArray(2, a1);
            seats.setArray(3, a2);
            seats.setArray(4, a3);
            seats.setArray(5, a4);
            seats.setArray(6, a5);
            seats.executeUpdate();
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE baseline.seats");
        }
    }
}
