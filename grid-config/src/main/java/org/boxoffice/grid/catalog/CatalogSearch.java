package org.boxoffice.grid.catalog;

import org.boxoffice.grid.InventoryUnavailableException;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.sql.SqlResult;
import com.hazelcast.sql.SqlRow;
import com.hazelcast.sql.SqlStatement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Searches events with Hazelcast SQL over the {@code catalog_events} map: by city (exact, any
 * case), free text (title, artist or venue, substring, any case) and a date range that overlaps
 * the event's shows. Filters that are not given are left out of the statement.
 */
public final class CatalogSearch {

    public static final String MAP = "catalog_events";

    private final HazelcastInstance hz;
    private volatile boolean mapped;

    public CatalogSearch(HazelcastInstance hz) {
        this.hz = hz;
        mapIfDataMember();
    }

    /**
     * Creates (or replaces) the map's SQL mapping, once, on a data member: Hazelcast runs no SQL on a
     * lite member, which a member is while it warms up before it owns partitions.
     */
    private void mapIfDataMember() {
        if (mapped || hz.getCluster().getLocalMember().isLiteMember()) {
            return;
        }
        hz.getSql().executeUpdate("CREATE OR REPLACE MAPPING \"" + MAP + "\" ("
                + "__key VARCHAR, eventId VARCHAR, title VARCHAR, artist VARCHAR, category VARCHAR, "
                + "description VARCHAR, venueId VARCHAR, venueName VARCHAR, city VARCHAR, "
                + "firstShowAt BIGINT, lastShowAt BIGINT) TYPE IMap OPTIONS ("
                + "'keyFormat'='varchar', 'valueFormat'='compact', 'valueCompactTypeName'='EventListing')");
        mapped = true;
    }

    /** A search; null fields are not filtered on. Times are epoch millis, {@code to} exclusive. */
    public record Query(String city, String text, Long from, Long to) {
    }

    /**
     * The events matching {@code q}, by their first show. On a lite member (one still warming up, not
     * yet serving fans) an {@link InventoryUnavailableException}: 503, ask again.
     */
    public List<EventListing> search(Query q) {
        mapIfDataMember();
        if (!mapped) {
            throw new InventoryUnavailableException("this member is still warming up and searches once it owns data", null);
        }
        StringBuilder sql = new StringBuilder("SELECT eventId, title, artist, category, description, venueId, "
                + "venueName, city, firstShowAt, lastShowAt FROM \"" + MAP + "\" WHERE 1 = 1");
        List<Object> params = new ArrayList<>();
        if (q.city() != null) {
            sql.append(" AND LOWER(city) = ?");
            params.add(q.city().toLowerCase(Locale.ROOT));
        }
        if (q.text() != null) {
            String like = "%" + escapeLike(q.text().toLowerCase(Locale.ROOT)) + "%";
            sql.append(" AND (LOWER(title) LIKE ? ESCAPE '\\' OR LOWER(artist) LIKE ? ESCAPE '\\'"
                    + " OR LOWER(venueName) LIKE ? ESCAPE '\\')");
            params.add(like);
            params.add(like);
            params.add(like);
        }
        if (q.from() != null) {
            sql.append(" AND lastShowAt >= ?");
            params.add(q.from());
        }
        if (q.to() != null) {
            sql.append(" AND firstShowAt < ?");
            params.add(q.to());
        }
        SqlStatement statement = new SqlStatement(sql.toString()).setParameters(params);
        List<EventListing> out = new ArrayList<>();
        try (SqlResult rows = hz.getSql().execute(statement)) {
            for (SqlRow r : rows) {
                out.add(new EventListing(r.getObject(0), r.getObject(1), r.getObject(2), r.getObject(3),
                        r.getObject(4), r.getObject(5), r.getObject(6), r.getObject(7),
                        r.<Long>getObject(8), r.<Long>getObject(9)));
            }
        }
        // sorted here rather than in SQL: results are small, and a distributed sort costs a Jet job stage.
        out.sort(java.util.Comparator.comparingLong(EventListing::firstShowAt).thenComparing(EventListing::eventId));
        return out;
    }

    private static String escapeLike(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
