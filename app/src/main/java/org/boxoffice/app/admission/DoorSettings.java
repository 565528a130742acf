package org.boxoffice.app.admission;

import io.helidon.config.Config;
import org.boxoffice.app.secrets.SecretSetting;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The waiting room's door ({@code boxoffice.challenge.*}, {@code boxoffice.limits.door.*},
 * {@code boxoffice.limits.trustforwarded}).
 *
 * @param challengeSecret    HMAC secret signing challenges and their expected keys (32+ bytes)
 * @param challengeCost      PBKDF2-SHA-256 iterations of one key derivation
 * @param challengeDifficulty key derivations a fan's device runs on average to solve a challenge,
 *                           for rooms turned on without their own (0: joining needs no challenge)
 * @param challengeTtl       how long a challenge may be solved and used
 * @param accountPerMinute   challenges plus joins per account per minute, cluster-wide (0: no limit)
 * @param addressPerMinute   challenges plus joins per client address per minute, cluster-wide (0: no limit)
 * @param trustForwarded     the client address is the last entry of {@code X-Forwarded-For} (set by your
 *                           load balancer), not the peer's; only behind a proxy that sets it
 * @param issuePerSecond     challenges this member issues a second at most, whoever asks (issuing one
 *                           costs a key derivation); beyond it 429 with Retry-After (0: no budget)
 */
public record DoorSettings(String challengeSecret, int challengeCost, int challengeDifficulty, Duration challengeTtl,
                           int accountPerMinute, int addressPerMinute, boolean trustForwarded, int issuePerSecond) {

    /** The public demo value of {@code boxoffice.challenge.secret}: accepted in demo mode only. */
    public static final String DEMO_CHALLENGE_SECRET = "boxoffice-demo-challenge-secret-change-me-in-production";
    private static final SecretSetting CHALLENGE_SECRET =
            new SecretSetting("boxoffice.challenge.secret", DEMO_CHALLENGE_SECRET);

    public DoorSettings {
        if (issuePerSecond < 0) {
            throw new IllegalArgumentException("boxoffice.challenge.issuepersecond is a number of challenges a second, "
                    + "0 for no budget; not " + issuePerSecond);
        }
    }

    /** The shipped defaults, with the public demo secret. */
    public static DoorSettings defaults() {
        return new DoorSettings(DEMO_CHALLENGE_SECRET, 1_000, 400, Duration.ofMinutes(2), 12, 600, false, 0);
    }

    /** No challenge unless a room asks for one, and no door limits (the demo secret). */
    public static DoorSettings open() {
        return new DoorSettings(DEMO_CHALLENGE_SECRET, 1_000, 0, Duration.ofMinutes(2), 0, 0, false, 0);
    }

    /** Reads the settings under {@code boxoffice}. */
    public static DoorSettings from(Config boxoffice) {
        DoorSettings d = defaults();
        Config challenge = boxoffice.get("challenge");
        Config limits = boxoffice.get("limits");
        return new DoorSettings(
                challenge.get("secret").asString().orElse(d.challengeSecret()),
                challenge.get("cost").asInt().orElse(d.challengeCost()),
                challenge.get("difficulty").asInt().orElse(d.challengeDifficulty()),
                Duration.ofSeconds(challenge.get("seconds").asLong().orElse(d.challengeTtl().toSeconds())),
                limits.get("door.account").asInt().orElse(d.accountPerMinute()),
                limits.get("door.address").asInt().orElse(d.addressPerMinute()),
                limits.get("trustforwarded").asBoolean().orElse(d.trustForwarded()),
                challenge.get("issuepersecond").asInt().orElse(d.issuePerSecond()));
    }

    /**
     * What keeps these settings from a start outside demo mode: the challenge secret missing, the
     * public demo value or short ({@link SecretSetting#problem}); a known one lets scripts skip the work.
     */
    public List<String> secretProblems() {
        return CHALLENGE_SECRET.problem(challengeSecret).stream().toList();
    }

    /**
     * These settings with the challenge secret replaced by the demo's own if it is still the public
     * demo value ({@code secretOf} gives a setting's secret by its name). For demo mode only.
     */
    public DoorSettings withDemoSecrets(UnaryOperator<String> secretOf) {
        return withChallengeSecret(CHALLENGE_SECRET.replacingDemoValue(challengeSecret, secretOf));
    }

    public DoorSettings withChallengeSecret(String secret) {
        return new DoorSettings(secret, challengeCost, challengeDifficulty, challengeTtl, accountPerMinute,
                addressPerMinute, trustForwarded, issuePerSecond);
    }

    public DoorSettings withIssuePerSecond(int perSecond) {
        return new DoorSettings(challengeSecret, challengeCost, challengeDifficulty, challengeTtl, accountPerMinute,
                addressPerMinute, trustForwarded, perSecond);
    }
}
