package org.boxoffice.app.admission;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.grid.room.WaitingRooms;

import java.util.Map;
import java.util.Optional;

/**
 * Stands in front of every hold: rate limits per account and per client address (429 with
 * Retry-After), and during a rush a valid pass for this account and this show (403
 * {@code PASS_REQUIRED} when missing or expired, 403 {@code PASS_INVALID} when forged or issued to
 * another account or show).
 */
public final class AdmissionGate {

    /** The request header carrying the pass. */
    public static final HeaderName PASS_HEADER = HeaderNames.create("Queue-Pass");

    private final WaitingRooms rooms;
    private final PassTokens tokens;
    private final RateLimiter perAccount;
    private final RateLimiter perAddress;

    public AdmissionGate(WaitingRooms rooms, PassTokens tokens, RateLimiter perAccount, RateLimiter perAddress) {
        this.rooms = rooms;
        this.tokens = tokens;
        this.perAccount = perAccount;
        this.perAddress = perAddress;
    }

    /** Returns whether the hold was let in through a rush (so a successful hold counts as a conversion). */
    public boolean check(ServerRequest req, Principal caller, String showId) {
        limit(perAccount.acquire(caller.accountId()), "this account");
        limit(perAddress.acquire(req.remotePeer().host()), "this address");
        if (!rooms.active(showId)) {
            return false;
        }
        Optional<String> pass = req.headers().first(PASS_HEADER);
        PassTokens.Check check = tokens.verify(pass.orElse(null), "pass");
        if (check.problem() == PassTokens.Problem.MISSING || check.problem() == PassTokens.Problem.EXPIRED) {
            throw new ApiException(403, "PASS_REQUIRED", "this show is selling through its waiting room: join "
                    + "POST /v1/shows/" + showId + "/queue and send the pass you get in the Queue-Pass header"
                    + (check.problem() == PassTokens.Problem.EXPIRED ? " (your pass has expired)" : ""));
        }
        if (!check.ok() || !check.claims().accountId().equals(caller.accountId()) || !check.claims().showId().equals(showId)) {
            throw new ApiException(403, "PASS_INVALID", "this pass was not issued to this account for this show");
        }
        return true;
    }

    private static void limit(long retryAfterSeconds, String who) {
        if (retryAfterSeconds > 0) {
            throw new ApiException(429, "RATE_LIMITED", "too many hold requests from " + who + "; slow down",
                    Map.of("retryAfterSeconds", retryAfterSeconds));
        }
    }
}
