package org.boxoffice.app.holds;

import org.boxoffice.app.http.JsonBytes;
import org.boxoffice.domain.HoldState;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** A hold as the API shows it. */
public record HoldView(String holdId, String showId, String accountId, List<String> seatIds, HoldState status,
                       Instant expiresAt, BigDecimal totalAmount, String currency) {

    /** The JSON answer, written straight to bytes: every successful hold sends one (same bytes as the mapper's). */
    public byte[] json() {
        return new JsonBytes().field("holdId", holdId).field("showId", showId).field("accountId", accountId)
                .field("seatIds", seatIds).field("status", status.name()).field("expiresAt", expiresAt)
                .field("totalAmount", totalAmount).field("currency", currency).toBytes();
    }
}
