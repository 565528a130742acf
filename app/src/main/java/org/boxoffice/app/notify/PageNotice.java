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

    /** As it travels between members: with the account it is addressed to. */
    public String json() {
        return json(true);
    }

    /**
     * As the page reads it: without the account, which a page that names a hold id proves nothing
     * about (hold ids are not secrets).
     */
    public String pageJson() {
        return json(false);
    }

    /**
     * The hold whose page is told too, or null: an offer made is told to its fan's keyed pages alone,
     * since a page that names the offer's hold id before it was made proves nothing about who it is.
     */
    public String holdPage() {
        return "OFFER_MADE".equals(kind) ? null : holdId;
    }

    private String json(boolean withAccount) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind);
        m.put("showId", showId);
        m.put("holdId", holdId);
        if (withAccount) {
            m.put("accountId", accountId);
        }
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
