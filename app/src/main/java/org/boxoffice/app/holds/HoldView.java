package org.boxoffice.app.holds;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** A hold as the API shows it. */
public record HoldView(String holdId, String showId, String accountId, List<String> seatIds, String status,
                       Instant expiresAt, BigDecimal totalAmount, String currency) {
}
