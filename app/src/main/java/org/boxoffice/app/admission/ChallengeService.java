package org.boxoffice.app.admission;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.room.RoomView;
import org.boxoffice.grid.room.WaitingRooms;

import java.util.function.LongSupplier;

/**
 * The waiting room door's proof-of-work challenges (ALTCHA v2, PBKDF2/SHA-256), one per join.
 *
 * <pre>
 * curl 'localhost:8080/v1/challenge?showId=echoes-berlin-1' -H "Authorization: Bearer $TOKEN"
 * # -> {"parameters":{"algorithm":"PBKDF2/SHA-256","cost":1000,"data":{"account":"alice","show":"echoes-berlin-1"},
 * #      "expiresAt":…,"keyLength":32,"keyPrefix":"…","keySignature":"…","nonce":"…","salt":"…"},"signature":"…"}
 * </pre>
 * The solution goes, base64-encoded, in the {@code Challenge-Solution} header of
 * {@code POST /v1/shows/{showId}/queue}.
 */
public final class ChallengeService implements HttpService {

    private final Authenticator auth;
    private final ShowDirectory shows;
    private final WaitingRooms rooms;
    private final Challenges challenges;
    private final AdmissionGate gate;
    private final LongSupplier clock;

    public ChallengeService(Authenticator auth, ShowDirectory shows, WaitingRooms rooms, Challenges challenges,
                            AdmissionGate gate, LongSupplier clock) {
        this.auth = auth;
        this.shows = shows;
        this.rooms = rooms;
        this.challenges = challenges;
        this.gate = gate;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/challenge", this::challenge);
    }

    private void challenge(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        String id = req.query().first("showId").asOptional()
                .orElseThrow(() -> ApiException.badRequest("name the show: GET /v1/challenge?showId=…"));
        Show show = shows.find(id).orElseThrow(() -> ApiException.notFound("show " + id));
        RoomView room = rooms.summary(show.showId()).filter(v -> v.active(clock.getAsLong())).orElse(null);
        if (room == null || room.challengeDifficulty() <= 0) {
            throw Refusals.of(Refusal.CHALLENGE_NOT_REQUIRED, "show " + show.showId()
                    + " asks no challenge now; join its waiting room (if it has one on) without one");
        }
        gate.spendChallenge(show.showId());
        gate.atTheDoor(req, caller, show.showId());
        res.header(HeaderNames.CACHE_CONTROL, "private, no-store");
        Json.send(res, 200, challenges.issue(caller.accountId(), show.showId(), room.challengeDifficulty()));
    }
}
