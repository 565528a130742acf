package org.boxoffice.app.notify;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.app.http.Json;
import org.boxoffice.domain.MailOutbox.Message;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A notice for a fan's open page, as it travels between members and as the page reads it (the live
 * stream's {@code notice} event): a hold's lapse, a waitlist offer made, or an offer about to lapse.
 * It is addressed to the page that follows its hold and to the pages the fan ({@code accountId})
 * opened with a key of their own, nobody else.
 *
 * @param kind      {@code HOLD_LAPSED}, {@code OFFER_MADE} or {@code OFFER_LAPSING}
 * @param expiresAt when the offer lapses (epoch ms), else 0
 * @param offer     what the offer holds, else null
 */
public record PageNotice(String kind, String showId, String holdId, String accountId, long expiresAt,
                         Message.Offered offer, String message) {

    public String json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind);
        m.put("showId", showId);
        m.put("holdId", holdId);
        m.put("accountId", accountId);
        if (expiresAt > 0) {
            m.put("expiresAt", expiresAt);
        }
        if (offer != null) {
            m.put("seatIds", offer.seatIds());
            if (offer.area() != null) {
                m.put("area", offer.area());
            }
            m.put("quantity", offer.quantity());
        }
        m.put("message", message);
        return Json.write(m);
    }

    public static PageNotice parse(String json) {
        try {
            JsonNode n = Json.MAPPER.readTree(json);
            Message.Offered offer = null;
            if (n.has("quantity")) {
                List<String> seats = new ArrayList<>();
                n.path("seatIds").forEach(s -> seats.add(s.asText()));
                offer = new Message.Offered(seats, n.hasNonNull("area") ? n.get("area").asText() : null,
                        n.get("quantity").asInt());
            }
            return new PageNotice(n.path("kind").asText(), n.path("showId").asText(), n.path("holdId").asText(),
                    n.hasNonNull("accountId") ? n.get("accountId").asText() : null, n.path("expiresAt").asLong(0),
                    offer, n.path("message").asText());
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not a page notice: " + json, e);
        }
    }
}
