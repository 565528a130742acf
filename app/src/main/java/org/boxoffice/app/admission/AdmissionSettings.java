package org.boxoffice.app.admission;

import io.helidon.config.Config;
import org.boxoffice.app.secrets.SecretSetting;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The waiting room and the hold endpoint's rate limits ({@code boxoffice.room.*},
 * {@code boxoffice.limits.*}), and the room's door ({@link DoorSettings}). Tests start from
 * {@link #defaults()} and change what they need with the {@code with} copies.
 *
 * @param passSecret       HS256 secret signing queue tokens and passes (32+ bytes)
 * @param passTtl          how long a pass stays valid after admission
 * @param admissionRate    buyers admitted per second when an admin turns a room on without a rate
 * @param seatsPerBuyer    average seats per buyer, for the seat cap on admission
 * @param tick             how often rooms admit and member caches refresh
 * @param accountPerMinute hold requests per account per minute (0: no limit)
 * @param addressPerMinute hold requests per client address per minute (0: no limit)
 * @param streamsPerMember live seat-map streams one member keeps open at once (0: no limit)
 * @param door             the waiting room's door: its proof-of-work challenge and its velocity limits
 */
public record AdmissionSettings(String passSecret, Duration passTtl, double admissionRate, double seatsPerBuyer,
                                Duration tick, int accountPerMinute, int addressPerMinute, int streamsPerMember,
                                DoorSettings door) {

    /** The public demo value of {@code boxoffice.room.secret}: accepted in demo mode only. */
    public static final String DEMO_ROOM_SECRET = "boxoffice-demo-room-secret-change-me-in-production";
    private static final SecretSetting PASS_SECRET = new SecretSetting("boxoffice.room.secret", DEMO_ROOM_SECRET);

    /** The shipped defaults (the demo secrets), as {@link #from} reads them from an empty configuration. */
    public static AdmissionSettings defaults() {
        return new AdmissionSettings(DEMO_ROOM_SECRET, Duration.ofSeconds(600), 50.0, 2.5, Duration.ofMillis(250), 120,
                6000, 2000, DoorSettings.defaults());
    }

    /** Reads the settings under {@code boxoffice}. */
    public static AdmissionSettings from(Config boxoffice) {
        AdmissionSettings d = defaults();
        Config room = boxoffice.get("room");
        Config limits = boxoffice.get("limits");
        return new AdmissionSettings(
                room.get("secret").asString().orElse(d.passSecret()),
                Duration.ofSeconds(room.get("passseconds").asLong().orElse(d.passTtl().toSeconds())),
                room.get("rate").asDouble().orElse(d.admissionRate()),
                room.get("seatsperbuyer").asDouble().orElse(d.seatsPerBuyer()),
                Duration.ofMillis(room.get("tickmillis").asLong().orElse(d.tick().toMillis())),
                limits.get("account").asInt().orElse(d.accountPerMinute()),
                limits.get("address").asInt().orElse(d.addressPerMinute()),
                limits.get("streams").asInt().orElse(d.streamsPerMember()),
                DoorSettings.from(boxoffice));
    }

    /**
     * What keeps these settings from a start outside demo mode: the room's secret, then the door's
     * ({@link DoorSettings#secretProblems}), each missing, the public demo value or short
     * ({@link SecretSetting#problem}).
     */
    public List<String> secretProblems() {
        return Stream.concat(PASS_SECRET.problem(passSecret).stream(), door.secretProblems().stream()).toList();
    }

    /**
     * These settings with the room's and the door's secrets each replaced by the demo's own if it is
     * still its public demo value ({@code secretOf} gives a setting's secret by its name). For demo mode only.
     */
    public AdmissionSettings withDemoSecrets(UnaryOperator<String> secretOf) {
        return withPassSecret(PASS_SECRET.replacingDemoValue(passSecret, secretOf))
                .withDoor(door.withDemoSecrets(secretOf));
    }

    public AdmissionSettings withPassSecret(String secret) {
        return new AdmissionSettings(secret, passTtl, admissionRate, seatsPerBuyer, tick, accountPerMinute,
                addressPerMinute, streamsPerMember, door);
    }

    /** These settings with the room admitting {@code perSecond} by default and refreshing every {@code tick}. */
    public AdmissionSettings withRoom(double perSecond, double seatsPerBuyer, Duration tick) {
        return new AdmissionSettings(passSecret, passTtl, perSecond, seatsPerBuyer, tick, accountPerMinute,
                addressPerMinute, streamsPerMember, door);
    }

    /** These settings with other hold limits per account and per address (a minute; 0: no limit). */
    public AdmissionSettings withHoldLimits(int accountPerMinute, int addressPerMinute) {
        return new AdmissionSettings(passSecret, passTtl, admissionRate, seatsPerBuyer, tick, accountPerMinute,
                addressPerMinute, streamsPerMember, door);
    }

    public AdmissionSettings withStreamsPerMember(int streams) {
        return new AdmissionSettings(passSecret, passTtl, admissionRate, seatsPerBuyer, tick, accountPerMinute,
                addressPerMinute, streams, door);
    }

    public AdmissionSettings withDoor(DoorSettings door) {
        return new AdmissionSettings(passSecret, passTtl, admissionRate, seatsPerBuyer, tick, accountPerMinute,
                addressPerMinute, streamsPerMember, door);
    }
}
