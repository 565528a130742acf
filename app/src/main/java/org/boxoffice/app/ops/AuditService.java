package org.boxoffice.app.ops;

import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.SeatEvent;
import org.boxoffice.domain.Show;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A seat's audit trail (admin): every transition with who, when, why, the hold or booking, and the
 * state and version before and after.
 *
 * <pre>
 * curl localhost:8080/v1/admin/shows/echoes-berlin-1/seats/A-1-1/history -H "Authorization: Bearer $ADMIN"
 * </pre>
 */
public final class AuditService implements HttpService {

    private final Authenticator auth;
    private final ShowDirectory shows;
    private final InventoryRepository repository;

    public AuditService(Authenticator auth, ShowDirectory shows, InventoryRepository repository) {
        this.auth = auth;
        this.shows = shows;
        this.repository = repository;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/admin/shows/{showId}/seats/{seatId}/history", this::history);
    }

    private void history(ServerRequest req, ServerResponse res) {
        if (!auth.require(req).isAdmin()) {
            throw Refusals.of(Refusal.FORBIDDEN, "this needs the admin role");
        }
        String showId = req.path().pathParameters().get("showId");
        String seatId = req.path().pathParameters().get("seatId");
        Show show = shows.find(showId).orElseThrow(() -> ApiException.notFound("show " + showId));
        if (show.layout().locate(seatId).isEmpty()) {
            throw ApiException.notFound("seat " + seatId + " of show " + showId);
        }
        List<Map<String, Object>> events = repository.history(showId, seatId).stream().map(AuditService::view).toList();
        Json.send(res, 200, Map.of("showId", showId, "seatId", seatId, "events", events));
    }

    private static Map<String, Object> view(SeatEvent e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", Instant.ofEpochMilli(e.at()));
        m.put("kind", e.kind());
        m.put("actor", e.actor());
        m.put("reason", e.reason());
        m.put("holdId", e.holdId());
        m.put("bookingId", e.bookingId() == null ? null : Long.toString(e.bookingId()));
        m.put("from", e.oldState());
        m.put("to", e.newState());
        m.put("fromVersion", e.oldVersion());
        m.put("toVersion", e.newVersion());
        return m;
    }
}
