package org.boxoffice.app.notify;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.app.http.Json;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A notice for a fan's open page, as it travels between members and as the page reads it (the live
 * stream's {@code notice} event): a hold's lapse or an offer about to lapse.
 *
 * @param kind      {@code HOLD_LAPSED} or {@code OFFER_LAPSING}
 * @param expiresAt when the offer lapses (epoch ms), else 0
 */
public record PageNotice(String kind, String showId, String holdId, long expiresAt, String message) {

    public String json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind);
        m.put("showId", showId);
        m.put("holdId", holdId);
        if (expiresAt > 0) {
            m.put("expiresAt", expiresAt);
        }
        m.put("message", message);
        return Json.write(m);
    }

    public static PageNotice parse(String json) {
        try {
            JsonNode n = Json.MAPPER.readTree(json);
            return new PageNotice(n.path("kind").asText(), n.path("showId").asText(), n.path("holdId").asText(),
                    n.path("expiresAt").asLong(0), n.path("message").asText());
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not a page notice: " + json, e);
        }
    }
}
