package org.boxoffice.app.holds;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.boxoffice.app.http.JsonBytes;
import org.boxoffice.domain.HoldOrigin;
import org.boxoffice.domain.HoldState;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A hold as the API shows it: of seats ({@code seatIds}), or of admissions to a general-admission
 * area ({@code area} and {@code quantity}, absent for a hold of seats; {@code seatIds} empty), with its
 * {@code origin}: {@code fan}, or {@code waitlist-offer} for a hold the waitlist made for the fan.
 */
public record HoldView(String holdId, String showId, String accountId, List<String> seatIds,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String area,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Integer quantity, HoldState status,
                       Instant expiresAt, BigDecimal totalAmount, String currency) {

    /** A hold of seats. */
    public HoldView(String holdId, String showId, String accountId, List<String> seatIds, HoldState status,
                    Instant expiresAt, BigDecimal totalAmount, String currency) {
        this(holdId, showId, accountId, seatIds, null, null, status, expiresAt, totalAmount, currency);
    }

    /** Where the hold came from, as the API names it ({@link HoldOrigin}). */
    @JsonProperty("origin")
    public String origin() {
        return HoldOrigin.of(holdId).apiName();
    }

    /** The JSON answer, written straight to bytes: every successful hold sends one (same bytes as the mapper's). */
    public byte[] json() {
        JsonBytes out = new JsonBytes().field("holdId", holdId).field("showId", showId).field("accountId", accountId)
                .field("seatIds", seatIds);
        if (area != null) {
            out.field("area", area);
        }
        if (quantity != null) {
            out.field("quantity", quantity.intValue());
        }
        return out.field("status", status.name()).field("expiresAt", expiresAt)
                .field("totalAmount", totalAmount).field("currency", currency).field("origin", origin()).toBytes();
    }
}
