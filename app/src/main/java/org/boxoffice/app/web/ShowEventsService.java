package org.boxoffice.app.web;

import io.helidon.http.HeaderNames;
import io.helidon.http.sse.SseEvent;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.sse.SseSink;
import org.boxoffice.app.admission.PassTokens;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.domain.Show;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Live seat-map updates as Server-Sent Events: first the whole map ({@code event: availability},
 * the same JSON as {@code GET /v1/shows/{id}/availability}), then every change within a poll
 * interval of the snapshot showing it ({@code event: changes},
 * {@code {"seq":..,"changes":[[seatIndex,status],...]}}), with a comment line every 15 s so idle
 * connections stay open through proxies. A reconnecting {@code EventSource} starts again from the
 * whole map. Each member keeps at most {@code boxoffice.limits.streams} streams open; beyond
 * that it answers 503 {@code STREAMS_FULL} with Retry-After, and clients poll the seat map. A page
 * A signed-in fan's page names a key of theirs ({@code ?key=}, from {@code POST .../events/key}: an
 * {@code EventSource} cannot send the bearer token) and is also told the fan's own notices, a
 * waitlist offer made for them first of all; a key that is forged, expired or another show's is a
 * 401, so no page hears another fan's notices. A page that holds seats names its hold too
 * ({@code ?hold=}, with the key of the account that holds it: 401 without a key, 404 for a hold of
 * another account or show) and is also told when it lapses ({@code event: notice}).
 *
 * <pre>
 * curl -N localhost:8080/v1/shows/echoes-berlin-1/events
 * KEY=$(curl -s -X POST localhost:8080/v1/shows/echoes-berlin-1/events/key -H "Authorization: Bearer $TOKEN" | jq -r .key)
 * curl -N "localhost:8080/v1/shows/echoes-berlin-1/events?key=$KEY"
 * curl -N "localhost:8080/v1/shows/echoes-berlin-1/events?key=$KEY&hold=$HOLD"
 * </pre>
 */
public final class ShowEventsService implements HttpService {

    private static final Logger LOG = Logger.getLogger(ShowEventsService.class.getName());
    private static final String STREAM_KEY = "stream";
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
    private static final int HOLD_ID_MAX = 100;
    private static final int RETRY_AFTER_SECONDS = 30;
    /**
     * How long a stream key opens streams: a page open longer asks for another when its stream has to
     * be opened again. An open stream is not cut when its key expires.
     */
    private static final Duration KEY_TTL = Duration.ofHours(1);

    private final ShowDirectory shows;
    private final ShowEvents events;
    private final Authenticator auth;
    private final PassTokens keys;
    private final HoldOwners holds;
    private final int maxStreams;
    private final Duration keepAlive;
    private final AtomicInteger open = new AtomicInteger();

    /**
     * @param maxStreams streams this member keeps open at once (0: no cap). Each open stream holds
     *                   a connection and a virtual thread; beyond the cap a client is told to poll
     *                   the seat map instead (the web app does so by itself and retries the stream).
     */
    /** Whose holds are whose (the referee's holds). */
    @FunctionalInterface
    public interface HoldOwners {
        /** Whether {@code holdId} is a hold of show {@code showId} by account {@code accountId}. */
        boolean holds(String accountId, String showId, String holdId);
    }

    public ShowEventsService(ShowDirectory shows, ShowEvents events, int maxStreams, OpsMetrics metrics,
                             Authenticator auth, PassTokens keys, HoldOwners holds) {
        this(shows, events, maxStreams, KEEP_ALIVE, auth, keys, holds);
        metrics.gauge("boxoffice_seatmap_streams", "live seat-map streams (Server-Sent Events) open on this member",
                this::openStreams);
    }

    /**
     * @param keepAlive how long an idle stream waits before it writes a comment line; a client
     *                  that vanished is noticed at the second write after it went, so its slot
     *                  comes back within two of these
     */
    ShowEventsService(ShowDirectory shows, ShowEvents events, int maxStreams, Duration keepAlive,
                      Authenticator auth, PassTokens keys, HoldOwners holds) {
        this.shows = shows;
        this.events = events;
        this.auth = auth;
        this.keys = keys;
        this.holds = holds;
        this.maxStreams = maxStreams;
        this.keepAlive = keepAlive;
    }

    /** Streams open on this member now. */
    public int openStreams() {
        return open.get();
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/shows/{showId}/events", this::stream)
                .post("/shows/{showId}/events/key", this::key);
    }

    /** A key for the caller's stream of the show: {@code {"key", "showId", "expiresAt", "events"}}. */
    private void key(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String id = req.path().pathParameters().get("showId");
        shows.find(id).orElseThrow(() -> ApiException.notFound("show " + id));
        String key = keys.streamKey(caller.accountId(), id, KEY_TTL.toMillis());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("key", key);
        out.put("showId", id);
        out.put("expiresAt", Instant.ofEpochMilli(keys.verify(key, STREAM_KEY).claims().expiresAt()));
        out.put("events", "/v1/shows/" + id + "/events?key=" + key);
        Json.send(res, 200, out);
    }

    /** The account whose key {@code req} names, or null for an anonymous page; 401 for a key that opens nothing here. */
    private String keyHolder(ServerRequest req, String showId) {
        String key = req.query().first("key").orElse(null);
        if (key == null) {
            return null;
        }
        PassTokens.Check check = keys.verify(key, STREAM_KEY);
        if (check.ok() && check.claims().showId().equals(showId)) {
            return check.claims().accountId();
        }
        throw Refusals.of(Refusal.UNAUTHORIZED, (check.problem() == PassTokens.Problem.EXPIRED ? "expired" : "invalid")
                + " stream key; ask POST /v1/shows/" + showId + "/events/key for a key of this show");
    }

    /**
     * The hold {@code req} names ({@code ?hold=}), or null if none; only for its own account's key: a
     * hold id alone opens nothing (401), and a hold of another account or show is not found (404).
     */
    private String ownHold(ServerRequest req, String showId, String accountId) {
        String holdId = req.query().first("hold").orElse(null);
        if (holdId == null) {
            return null;
        }
        if (accountId == null) {
            throw Refusals.of(Refusal.UNAUTHORIZED, "a hold's notices come only with the stream key of the account that "
                    + "holds it; ask POST /v1/shows/" + showId + "/events/key and name it as ?key=");
        }
        if (holdId.length() > HOLD_ID_MAX || !holds.holds(accountId, showId, holdId)) {
            throw ApiException.notFound("hold " + holdId + " of this show");
        }
        return holdId;
    }

    private void stream(ServerRequest req, ServerResponse res) {
        String id = req.path().pathParameters().get("showId");
        Show show = shows.find(id).orElseThrow(() -> ApiException.notFound("show " + id));
        // the fan who opened the page, if it names their key: the fan's own notices come on it too
        String accountId = keyHolder(req, id);
        // the page's own hold, if it has one: its notices (a lapse) come on this stream too
        String holdId = ownHold(req, id, accountId);
        if (open.incrementAndGet() > maxStreams && maxStreams > 0) {
            open.decrementAndGet();
            throw Refusals.of(Refusal.STREAMS_FULL, "this member follows as many seat maps as it is set to ("
                    + maxStreams + "); poll GET /v1/shows/" + id + "/availability and try the stream again later",
                    Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS));
        }
        try {
            follow(id, show, holdId, accountId, res);
        } finally {
            open.decrementAndGet();
        }
    }

    private void follow(String id, Show show, String holdId, String accountId, ServerResponse res) {
        // proxies such as nginx would otherwise hold the events back in their buffers
        res.header(HeaderNames.create("X-Accel-Buffering"), "no");
        ShowEvents.Subscription sub = events.subscribe(show, holdId, accountId);
        try (sub; SseSink sink = res.sink(SseSink.TYPE)) {
            while (!sub.ended()) {
                ShowEvents.Event e = sub.next(keepAlive);
                if (e == null) {
                    if (!sub.ended()) {
                        sink.emit(SseEvent.builder().comment("keep-alive").build());
                    }
                    continue;
                }
                sink.emit(SseEvent.builder().id(Long.toString(e.seq())).name(e.name()).data(e.json()).build());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the client went away (a write failed); nothing is left to answer
            LOG.log(Level.FINEST, "seat-map stream of " + id + " ended", e);
        }
    }
}
