package org.boxoffice.app.admission;

import java.util.Locale;

/**
 * Why the door or the hold gate turned a request away as automated or unadmitted traffic, with the
 * answer each gets: the one table of these refusals' statuses and error codes. The metric counts
 * each reason apart ({@code boxoffice_bot_refusals_total{reason}}), while the error codes stay as
 * coarse as a client needs: a missing or expired pass both mean "queue again".
 */
public enum BotRefusal {
    CHALLENGE_MISSING(403, "CHALLENGE_REQUIRED"),
    CHALLENGE_INVALID(403, "CHALLENGE_INVALID"),
    CHALLENGE_EXPIRED(403, "CHALLENGE_EXPIRED"),
    CHALLENGE_REPLAYED(403, "CHALLENGE_REPLAYED"),
    RATE_LIMITED(429, "RATE_LIMITED"),
    PASS_MISSING(403, "PASS_REQUIRED"),
    PASS_EXPIRED(403, "PASS_REQUIRED"),
    PASS_INVALID(403, "PASS_INVALID"),
    PASS_FOREIGN(403, "PASS_INVALID");

    private final int status;
    private final String code;

    BotRefusal(int status, String code) {
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    /** The {@code error} code of the answer. */
    public String code() {
        return code;
    }

    /** The metric's {@code reason} label: {@code challenge_missing}, {@code pass_foreign}, … */
    public String reason() {
        return name().toLowerCase(Locale.ROOT);
    }
}
