package org.boxoffice.app.admission;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.BotRefusal;
import org.boxoffice.grid.limits.VelocityLimits;
import org.boxoffice.grid.room.WaitingRooms;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * Stands at the waiting room's door and in front of every hold, and counts what it turns away
 * ({@link BotRefusal}, {@code boxoffice_bot_refusals_total}).
 *
 * <ul>
 *   <li><b>The door</b> ({@code GET /v1/challenge} and joining a room): to join, a solved
 *       proof-of-work challenge for this account and show ({@link Challenges}); then velocity limits
 *       per account and per client address, cluster-wide (two grid buckets taken in parallel).</li>
 *   <li><b>Holds</b>: the per-address limit on this member only (no grid call: a flood from one
 *       address is cut by every member it reaches); during a rush a valid pass for this account and
 *       show (403 {@code PASS_REQUIRED} when missing or expired, 403 {@code PASS_INVALID} when forged
 *       or issued to another account or show), checked before any grid call; then, for a hold the
 *       seat-map snapshot did not refuse, the per-account limit, cluster-wide (one grid bucket: one
 *       entry processor on the account's partition).</li>
 * </ul>
 */
public final class AdmissionGate {

    /** The request header carrying the pass. */
    public static final HeaderName PASS_HEADER = HeaderNames.create("Queue-Pass");
    /** The request header carrying a solved challenge (base64 of ALTCHA's v2 payload). */
    public static final HeaderName SOLUTION_HEADER = HeaderNames.create("Challenge-Solution");
    private static final HeaderName FORWARDED_FOR = HeaderNames.create("X-Forwarded-For");

    /**
     * What the gate needs to know and use.
     *
     * @param challengesPerSecond challenges this member issues a second at most (0: no budget)
     */
    public record Limits(int holdsPerAccount, RateLimiter holdsPerAddress, int doorPerAccount, int doorPerAddress,
                         boolean trustForwarded, int challengesPerSecond) {
    }

    private final WaitingRooms rooms;
    private final PassTokens tokens;
    private final Challenges challenges;
    private final VelocityLimits velocity;
    private final Limits limits;
    private final OpsMetrics metrics;
    private final Predicate<String> knownShow;
    private final IssueBudget issuing;
    /** Accounts this member saw over their hold limit, until when ({@link System#nanoTime}): see {@link #holdPermit}. */
    private final Map<String, Long> recentlyLimited = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int RECENTLY_LIMITED_MAX = 100_000;
    private static final long RECENTLY_LIMITED_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(1);

    public AdmissionGate(WaitingRooms rooms, PassTokens tokens, Challenges challenges, VelocityLimits velocity,
                         Limits limits, OpsMetrics metrics, Predicate<String> knownShow) {
        this.rooms = rooms;
        this.tokens = tokens;
        this.challenges = challenges;
        this.velocity = velocity;
        this.limits = limits;
        this.metrics = metrics;
        this.knownShow = knownShow;
        this.issuing = new IssueBudget(limits.challengesPerSecond());
    }

    /**
     * The same gate with its velocity buckets in another grid: a starting member's rehearsal takes
     * from buckets in its private stage, through the same code as the fans' holds.
     */
    public AdmissionGate withVelocity(VelocityLimits buckets) {
        return new AdmissionGate(rooms, tokens, challenges, buckets, limits, metrics, knownShow);
    }

    /**
     * This member's budget for issuing challenges, whoever asks: issuing one costs the door's two
     * grid buckets and a key derivation (together 0.4–0.5 ms of the member's CPU), so a flood spread
     * over many accounts and addresses, each within its own limits, could still take the cores the
     * sale needs. Checked first, on this member alone (no grid call): past the budget the asker gets
     * 429 with Retry-After 1 and tries again, as a fan's browser does by itself.
     */
    public void spendChallenge(String showId) {
        if (!issuing.take(System.nanoTime())) {
            throw refuse(BotRefusal.RATE_LIMITED, showId, "this member is issuing as many challenges as it may now; "
                    + "ask again in a second", Map.of("retryAfterSeconds", 1L));
        }
    }

    /** A token bucket of one second's worth: {@code perSecond} tokens, refilled continuously. */
    private static final class IssueBudget {
        private final int perSecond;
        private double tokens;
        private long updatedAt;

        IssueBudget(int perSecond) {
            this.perSecond = perSecond;
            this.tokens = perSecond;
            this.updatedAt = System.nanoTime();
        }

        synchronized boolean take(long now) {
            if (perSecond <= 0) {
                return true;
            }
            tokens = Math.min(perSecond, tokens + (now - updatedAt) * perSecond / 1e9);
            updatedAt = now;
            if (tokens >= 1) {
                tokens -= 1;
                return true;
            }
            return false;
        }
    }

    /**
     * The checks in front of a hold that cost no grid call: the per-address limit and, during a rush,
     * the pass. Returns the pass's position when the hold was let in through a rush (a successful
     * hold converts that admitted buyer), empty otherwise.
     */
    public OptionalLong check(ServerRequest req, Principal caller, String showId) {
        limit(limits.holdsPerAddress().acquire(clientAddress(req)) * 1000, showId, "this address");
        if (!rooms.active(showId)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(requirePass(req, caller, showId));
    }

    /**
     * The per-account hold limit, cluster-wide: one entry processor on the account's bucket. Taken
     * by a hold that goes on to the grid (past the seat-map snapshot, which answers most of an
     * on-sale's attempts from memory): the limit guards the partitions and the referee, and a
     * refusal the snapshot gives costs what a plain request costs.
     *
     * <p>The token is asked for now and the returned permit's {@code run} waits for the answer,
     * throwing 429 {@code RATE_LIMITED} if the bucket was empty. The hold path asks for the permit where it
     * would have taken the token and runs it just before its claim, so the bucket's round trip
     * overlaps the allowance's instead of adding to it. Nothing the claim changes is visible before
     * the permit is granted; what runs meanwhile (the allowance's reservation) is given back by the
     * hold path when it is refused.
     *
     * <p>A client over its limit would make that overlap cost two grid calls more per refused hold
     * (the reservation and its release); so an account this member has seen refused within the last
     * minute waits for its token first, as before, and a flood costs what it cost.
     */
    public Runnable holdPermit(Principal caller, String showId) {
        int perMinute = limits.holdsPerAccount();
        String account = caller.accountId();
        long now = System.nanoTime();
        Long limitedUntil = recentlyLimited.get(account);
        if (limitedUntil != null && now - limitedUntil < 0) {
            limitHoldsAndRemember(account, showId, velocity.take("hold:acct:" + account, perMinute), now);
            return () -> { };
        }
        return new HoldPermit(account, showId, velocity.takeAsync("hold:acct:" + account, perMinute));
    }

    /** A token asked for and not yet waited for; run once or many times, it answers the same (one request's thread). */
    private final class HoldPermit implements Runnable {
        private final String account;
        private final String showId;
        private final java.util.concurrent.CompletionStage<Long> wait;
        private boolean granted;
        private RuntimeException refused;

        HoldPermit(String account, String showId, java.util.concurrent.CompletionStage<Long> wait) {
            this.account = account;
            this.showId = showId;
            this.wait = wait;
        }

        @Override
        public void run() {
            if (granted) {
                return;
            }
            if (refused != null) {
                throw refused;
            }
            try {
                limitHoldsAndRemember(account, showId, VelocityLimits.await(wait), System.nanoTime());
                granted = true;
            } catch (RuntimeException e) {
                refused = e;
                throw e;
            }
        }
    }

    private void limitHoldsAndRemember(String account, String showId, long retryAfterMillis, long now) {
        if (retryAfterMillis > 0) {
            if (recentlyLimited.size() >= RECENTLY_LIMITED_MAX) {
                recentlyLimited.clear();
            }
            recentlyLimited.put(account, now + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(retryAfterMillis)
                    + RECENTLY_LIMITED_NANOS);
        }
        limit(retryAfterMillis, showId, "this account");
    }

    /** The verified pass's position; refuses a missing, expired, forged or foreign pass. */
    private long requirePass(ServerRequest req, Principal caller, String showId) {
        Optional<String> pass = req.headers().first(PASS_HEADER);
        PassTokens.Check check = tokens.verify(pass.orElse(null), "pass");
        if (check.problem() == PassTokens.Problem.MISSING || check.problem() == PassTokens.Problem.EXPIRED) {
            throw refuse(check.problem() == PassTokens.Problem.MISSING ? BotRefusal.PASS_MISSING : BotRefusal.PASS_EXPIRED,
                    showId, "this show is selling through its waiting room: join POST /v1/shows/" + showId
                            + "/queue and send the pass you get in the Queue-Pass header"
                            + (check.problem() == PassTokens.Problem.EXPIRED ? " (your pass has expired)" : ""), Map.of());
        }
        if (!check.ok()) {
            throw refuse(BotRefusal.PASS_INVALID, showId, "this pass was not issued to this account for this show", Map.of());
        }
        if (!check.claims().accountId().equals(caller.accountId()) || !check.claims().showId().equals(showId)) {
            throw refuse(BotRefusal.PASS_FOREIGN, showId, "this pass was not issued to this account for this show", Map.of());
        }
        return check.claims().position();
    }

    /**
     * The door's velocity limits (asking for a challenge, joining a room): per account and per client
     * address, both cluster-wide.
     */
    public void atTheDoor(ServerRequest req, Principal caller, String showId) {
        long wait = velocity.take("door:acct:" + caller.accountId(), limits.doorPerAccount(),
                "door:addr:" + clientAddress(req), limits.doorPerAddress());
        limit(wait, showId, "this account or address");
    }

    /**
     * Joining a room with a difficulty above 0 needs a solved challenge for this account and show.
     * Checked before the door's limits: a join without a good solution is refused by two HMACs (a
     * replay by one grid write), without taking from the buckets.
     */
    public void requireSolution(ServerRequest req, Principal caller, String showId, int difficulty) {
        if (difficulty <= 0) {
            return;
        }
        String hint = "; get one with GET /v1/challenge?showId=" + showId + ", solve it and send it base64-encoded in the "
                + "Challenge-Solution header";
        switch (challenges.verify(req.headers().first(SOLUTION_HEADER).orElse(null), caller.accountId(), showId)) {
            case OK -> { }
            case MISSING -> throw refuse(BotRefusal.CHALLENGE_MISSING, showId,
                    "joining this waiting room needs a solved challenge" + hint, Map.of());
            case INVALID -> throw refuse(BotRefusal.CHALLENGE_INVALID, showId,
                    "this challenge solution is not valid for this account and show" + hint, Map.of());
            case EXPIRED -> throw refuse(BotRefusal.CHALLENGE_EXPIRED, showId, "this challenge has expired" + hint, Map.of());
            case REPLAYED -> throw refuse(BotRefusal.CHALLENGE_REPLAYED, showId,
                    "this challenge was used already; each is good for one join" + hint, Map.of());
        }
    }

    /**
     * The client's address: the peer's, or behind a load balancer that sets it
     * ({@code boxoffice.limits.trustforwarded}) the last entry of {@code X-Forwarded-For}, the one
     * that balancer added (entries before it are whatever the client claimed).
     */
    public String clientAddress(ServerRequest req) {
        if (limits.trustForwarded()) {
            Optional<String> forwarded = req.headers().first(FORWARDED_FOR);
            if (forwarded.isPresent()) {
                String list = forwarded.get();
                String last = list.substring(list.lastIndexOf(',') + 1).trim();
                if (!last.isEmpty() && last.length() <= 64) {
                    return last;
                }
            }
        }
        return req.remotePeer().host();
    }

    private void limit(long retryAfterMillis, String showId, String who) {
        if (retryAfterMillis > 0) {
            long seconds = Math.max(1, (retryAfterMillis + 999) / 1000);
            throw refuse(BotRefusal.RATE_LIMITED, showId, "too many requests from " + who + "; slow down",
                    Map.of("retryAfterSeconds", seconds));
        }
    }

    private ApiException refuse(BotRefusal refusal, String showId, String message, Map<String, Object> details) {
        metrics.botRefusal(refusal.reason(), knownShow.test(showId) ? showId : "-");
        return Refusals.of(refusal, message, details);
    }
}
