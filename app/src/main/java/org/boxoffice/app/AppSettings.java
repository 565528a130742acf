package org.boxoffice.app;

import io.helidon.config.Config;
import org.boxoffice.app.auth.AuthSettings;
import org.boxoffice.app.catalog.HoldDefaults;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.payments.PaymentSettings;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.mapstore.DbSettings;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Everything Boxoffice reads from configuration, read once by {@link Main}. Every key can be
 * overridden by an environment variable the way Helidon maps them ({@code BOXOFFICE_DB_URL}
 * for {@code boxoffice.db.url}); docs/configuration.md lists them all.
 *
 * @param dataDir      where the embedded database keeps its files ({@code boxoffice.data.dir})
 * @param db           external database, or null to run the embedded one
 * @param embeddedDbPort port of the embedded database (0: any free port)
 * @param grid         how the grid member binds and joins
 * @param holds        default hold rules for shows created without their own
 * @param auth         how bearer tokens are verified and whether dev tokens are issued
 * @param seedDemo     seed the demo catalog into an empty database
 * @param sweepEvery   how often each member sweeps its blocks for lapsed holds
 * @param reconcileEvery how often lapsed HELD rows are reconciled against the referee
 * @param snapshotEvery how often seat-map snapshots are rebuilt from the grid
 * @param admission    the waiting room and the hold endpoint's rate limits
 * @param invariantEvery how often the invariants are checked against PostgreSQL
 * @param checkout     payments, reconciliation, tickets and ticket mail ({@code boxoffice.payments.*},
 *                     {@code boxoffice.checkout.*}, {@code boxoffice.tickets.*}, {@code boxoffice.mail.*})
 * @param waitlist     offers to the waitlists of sold-out shows ({@code boxoffice.waitlist.*})
 */
public record AppSettings(Path dataDir, DbSettings db, int embeddedDbPort, int dbPoolSize, GridSettings grid,
                          HoldDefaults holds, AuthSettings auth, boolean seedDemo, Duration sweepEvery,
                          Duration reconcileEvery, Duration snapshotEvery, AdmissionSettings admission,
                          Duration invariantEvery, CheckoutSettings checkout, WaitlistSettings waitlist) {

    /** Settings with the waitlist's defaults ({@link WaitlistSettings#defaults()}), for callers that do not set them. */
    public AppSettings(Path dataDir, DbSettings db, int embeddedDbPort, int dbPoolSize, GridSettings grid,
                       HoldDefaults holds, AuthSettings auth, boolean seedDemo, Duration sweepEvery,
                       Duration reconcileEvery, Duration snapshotEvery, AdmissionSettings admission,
                       Duration invariantEvery, CheckoutSettings checkout) {
        this(dataDir, db, embeddedDbPort, dbPoolSize, grid, holds, auth, seedDemo, sweepEvery, reconcileEvery,
                snapshotEvery, admission, invariantEvery, checkout, WaitlistSettings.defaults());
    }

    /** Settings with checkout's defaults ({@link CheckoutSettings#defaults()}), for callers that do not set them. */
    public AppSettings(Path dataDir, DbSettings db, int embeddedDbPort, int dbPoolSize, GridSettings grid,
                       HoldDefaults holds, AuthSettings auth, boolean seedDemo, Duration sweepEvery,
                       Duration reconcileEvery, Duration snapshotEvery, AdmissionSettings admission,
                       Duration invariantEvery) {
        this(dataDir, db, embeddedDbPort, dbPoolSize, grid, holds, auth, seedDemo, sweepEvery, reconcileEvery,
                snapshotEvery, admission, invariantEvery, CheckoutSettings.defaults());
    }

    /**
     * The waiting room and the hold endpoint's rate limits.
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

        /** Settings with an open door ({@link DoorSettings#open()}), for callers that do not set it. */
        public AdmissionSettings(String passSecret, Duration passTtl, double admissionRate, double seatsPerBuyer,
                                 Duration tick, int accountPerMinute, int addressPerMinute, int streamsPerMember) {
            this(passSecret, passTtl, admissionRate, seatsPerBuyer, tick, accountPerMinute, addressPerMinute,
                    streamsPerMember, DoorSettings.open());
        }
    }

    /**
     * The waiting room's door ({@code boxoffice.challenge.*}, {@code boxoffice.limits.door.*}).
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

        public DoorSettings {
            if (issuePerSecond < 0) {
                throw new IllegalArgumentException("boxoffice.challenge.issuepersecond is a number of challenges a second, "
                        + "0 for no budget; not " + issuePerSecond);
            }
        }

        public DoorSettings(String challengeSecret, int challengeCost, int challengeDifficulty, Duration challengeTtl,
                            int accountPerMinute, int addressPerMinute, boolean trustForwarded) {
            this(challengeSecret, challengeCost, challengeDifficulty, challengeTtl, accountPerMinute, addressPerMinute,
                    trustForwarded, 0);
        }

        /** The shipped defaults, with the public demo secret. */
        public static DoorSettings defaults() {
            return new DoorSettings(DEMO_CHALLENGE_SECRET, 1_000, 400, Duration.ofMinutes(2), 12, 600, false, 0);
        }

        /** No challenge unless a room asks for one, and no door limits (the demo secret). */
        public static DoorSettings open() {
            return new DoorSettings(DEMO_CHALLENGE_SECRET, 1_000, 0, Duration.ofMinutes(2), 0, 0, false);
        }
    }



    /** The public demo value of {@code boxoffice.auth.secret}: accepted in demo mode only. */
    public static final String DEMO_AUTH_SECRET = "boxoffice-demo-secret-change-me-in-production";
    /** The public demo value of {@code boxoffice.room.secret}: accepted in demo mode only. */
    public static final String DEMO_ROOM_SECRET = "boxoffice-demo-room-secret-change-me-in-production";
    /** The public demo value of {@code boxoffice.challenge.secret}: accepted in demo mode only. */
    public static final String DEMO_CHALLENGE_SECRET = "boxoffice-demo-challenge-secret-change-me-in-production";
    /** Outside demo mode every secret has at least this many bytes (an HMAC-SHA256 key's size). */
    public static final int MIN_SECRET_BYTES = 32;

    /**
     * Demo mode: the service issues its own tokens ({@code boxoffice.auth.devtokens}), so anyone who
     * can reach it can be anyone, and the public demo secrets protect nothing more. Outside demo mode
     * (production) every secret must be set to a value of the operator's own ({@link #secretProblems}).
     */
    public boolean demoMode() {
        return auth.devTokens();
    }

    /**
     * What keeps these settings from a start outside demo mode: each secret (auth, unless an RS256
     * public key is set; room; challenge; tickets; webhook) that is missing, a public demo value, or shorter
     * than {@value #MIN_SECRET_BYTES} bytes, one line per setting naming it and its environment
     * variable. Empty if nothing.
     */
    public List<String> secretProblems() {
        List<String> problems = new ArrayList<>();
        if (auth.rsaPublicKey() == null) {
            checkSecret(problems, "boxoffice.auth.secret", auth.hmacSecret(), DEMO_AUTH_SECRET);
        }
        checkSecret(problems, "boxoffice.room.secret", admission.passSecret(), DEMO_ROOM_SECRET);
        checkSecret(problems, "boxoffice.challenge.secret", admission.door().challengeSecret(), DEMO_CHALLENGE_SECRET);
        checkSecret(problems, "boxoffice.tickets.secret", checkout.ticketSecret(), CheckoutSettings.DEMO_TICKET_SECRET);
        checkSecret(problems, "boxoffice.payments.webhooksecret", checkout.payments().webhookSecret(),
                PaymentSettings.DEMO_WEBHOOK_SECRET);
        return problems;
    }

    /**
     * These settings with every secret still at its public demo value replaced by the demo's own
     * ({@code secretOf} gives the secret of a setting by its name, generated once and kept with the
     * demo's data). Only in demo mode; settings the operator set are kept as they are.
     */
    public AppSettings withDemoSecrets(java.util.function.UnaryOperator<String> secretOf) {
        if (!demoMode()) {
            return this;
        }
        AuthSettings a = auth;
        if (DEMO_AUTH_SECRET.equals(a.hmacSecret())) {
            a = new AuthSettings(secretOf.apply("boxoffice.auth.secret"), a.rsaPublicKey(), a.issuer(), a.devTokens(), a.devRoles());
        }
        AdmissionSettings r = admission;
        DoorSettings d = r.door();
        if (DEMO_CHALLENGE_SECRET.equals(d.challengeSecret())) {
            d = new DoorSettings(secretOf.apply("boxoffice.challenge.secret"), d.challengeCost(), d.challengeDifficulty(),
                    d.challengeTtl(), d.accountPerMinute(), d.addressPerMinute(), d.trustForwarded(), d.issuePerSecond());
        }
        r = new AdmissionSettings(DEMO_ROOM_SECRET.equals(r.passSecret()) ? secretOf.apply("boxoffice.room.secret")
                : r.passSecret(), r.passTtl(), r.admissionRate(), r.seatsPerBuyer(), r.tick(), r.accountPerMinute(),
                r.addressPerMinute(), r.streamsPerMember(), d);
        CheckoutSettings c = checkout;
        if (CheckoutSettings.DEMO_TICKET_SECRET.equals(c.ticketSecret())) {
            c = c.withTicketSecret(secretOf.apply("boxoffice.tickets.secret"));
        }
        PaymentSettings p = c.payments();
        if (PaymentSettings.DEMO_WEBHOOK_SECRET.equals(p.webhookSecret())) {
            c = c.withPayments(p.withWebhookSecret(secretOf.apply("boxoffice.payments.webhooksecret")));
        }
        return new AppSettings(dataDir, db, embeddedDbPort, dbPoolSize, grid, holds, a, seedDemo, sweepEvery,
                reconcileEvery, snapshotEvery, r, invariantEvery, c, waitlist);
    }

    private static void checkSecret(List<String> problems, String key, String value, String demoValue) {
        String env = key.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
        if (value == null || value.isBlank()) {
            problems.add(key + " is not set (" + env + ")");
        } else if (value.equals(demoValue)) {
            problems.add(key + " is the public demo value; set your own secret (" + env + ")");
        } else if (value.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
            problems.add(key + " is shorter than " + MIN_SECRET_BYTES + " bytes (" + env + ")");
        }
    }

    /**
     * These settings, if they may start: in demo mode always; outside it only with every secret set to
     * a strong value of the operator's own. Otherwise throws, naming every setting to change.
     */
    public AppSettings requireStartable() {
        List<String> problems = demoMode() ? List.of() : secretProblems();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("refusing to start outside demo mode (boxoffice.auth.devtokens is false) "
                    + "with unsafe secrets:\n  - " + String.join("\n  - ", problems)
                    + "\nsee docs/configuration.md, \"Production mode\"");
        }
        if (!demoMode() && auth.devRoles()) {
            throw new IllegalStateException("boxoffice.auth.devroles is a demo setting; it needs boxoffice.auth.devtokens");
        }
        return this;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /**
     * Reads the settings under {@code boxoffice}; throws if they may not start
     * ({@link #requireStartable}: outside demo mode, a missing, demo or short secret).
     */
    /** The longest start-up rehearsal a member may be configured with: readiness waits for it. */
    public static final int MAX_REHEARSAL_SECONDS = 300;

    /**
     * {@code boxoffice.rehearsal.seconds}: how long a starting member rehearses at most before it
     * reports ready (0: no rehearsal); 20 when not set.
     *
     * @throws IllegalArgumentException if it is not a whole number of seconds from 0 to {@value #MAX_REHEARSAL_SECONDS}
     */
    public static int rehearsalSeconds(Config root) {
        String raw = root.get("boxoffice.rehearsal.seconds").asString().orElse("20").trim();
        int seconds;
        try {
            seconds = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (seconds < 0 || seconds > MAX_REHEARSAL_SECONDS) {
            throw new IllegalArgumentException("boxoffice.rehearsal.seconds is a whole number of seconds from 0 (no "
                    + "rehearsal) to " + MAX_REHEARSAL_SECONDS + "; not '" + raw + "'");
        }
        return seconds;
    }

    public static AppSettings from(Config root) {
        Config c = root.get("boxoffice");
        Path dataDir = Path.of(c.get("data.dir").asString().orElse("./data")).toAbsolutePath().normalize();
        String url = c.get("db.url").asString().orElse("");
        int pool = c.get("db.pool").asInt().orElse(24);
        DbSettings db = url.isBlank() ? null : new DbSettings(url, c.get("db.user").asString().orElse("boxoffice"),
                c.get("db.password").asString().orElse(""), pool);
        List<String> members = Arrays.stream(c.get("grid.members").asString().orElse("").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        String publicAddress = c.get("grid.public").asString().orElse("");
        String joinMode = c.get("grid.join").asString().orElse("tcp-ip").trim().toLowerCase(java.util.Locale.ROOT);
        GridSettings.Join join = switch (joinMode) {
            case "tcp-ip", "tcpip" -> GridSettings.Join.TCP_IP;
            case "kubernetes", "k8s" -> GridSettings.Join.KUBERNETES;
            default -> throw new IllegalArgumentException("boxoffice.grid.join is 'tcp-ip' or 'kubernetes', not '" + joinMode + "'");
        };
        GridSettings grid = new GridSettings(
                clusterName(c.get("grid.cluster").asString().orElse(""), db == null, dataDir),
                c.get("grid.bind").asString().orElse("127.0.0.1"),
                publicAddress.isBlank() ? null : publicAddress,
                c.get("grid.port").asInt().orElse(5701),
                members,
                c.get("grid.backups").asInt().orElse(1),
                join,
                blankToNull(c.get("grid.k8s.service").asString().orElse("")),
                blankToNull(c.get("grid.k8s.namespace").asString().orElse("")),
                blankToNull(c.get("grid.k8s.servicename").asString().orElse("")),
                c.get("grid.quorum").asInt().orElse(1),
                Arrays.stream(c.get("grid.mc.trusted").asString().orElse("").split(","))
                        .map(String::trim).filter(t -> !t.isEmpty()).toList());
        HoldDefaults holds = new HoldDefaults(
                c.get("holds.perhold").asInt().orElse(10),
                c.get("holds.peraccount").asInt().orElse(10),
                Duration.ofSeconds(c.get("holds.seconds").asLong().orElse(420L)),
                Duration.ofSeconds(c.get("holds.grace").asLong().orElse(5L)),
                c.get("holds.groups").asInt().orElse(271));
        String secret = c.get("auth.secret").asString().orElse(DEMO_AUTH_SECRET);
        String publicKey = c.get("auth.publickey").asString().orElse("");
        String issuer = c.get("auth.issuer").asString().orElse("");
        AuthSettings auth = new AuthSettings(secret.isBlank() ? null : secret, publicKey.isBlank() ? null : publicKey,
                issuer.isBlank() ? null : issuer, c.get("auth.devtokens").asBoolean().orElse(false),
                c.get("auth.devroles").asBoolean().orElse(false));
        return new AppSettings(dataDir, db, c.get("db.port").asInt().orElse(0), pool, grid, holds, auth,
                c.get("demo.seed").asBoolean().orElse(true),
                Duration.ofMillis(c.get("sweep.millis").asLong().orElse(500L)),
                Duration.ofMillis(c.get("reconcile.millis").asLong().orElse(10_000L)),
                Duration.ofMillis(c.get("snapshot.millis").asLong().orElse(250L)),
                new AdmissionSettings(
                        c.get("room.secret").asString().orElse(DEMO_ROOM_SECRET),
                        Duration.ofSeconds(c.get("room.passseconds").asLong().orElse(600L)),
                        c.get("room.rate").asDouble().orElse(50.0),
                        c.get("room.seatsperbuyer").asDouble().orElse(2.5),
                        Duration.ofMillis(c.get("room.tickmillis").asLong().orElse(250L)),
                        c.get("limits.account").asInt().orElse(120),
                        c.get("limits.address").asInt().orElse(6000),
                        c.get("limits.streams").asInt().orElse(2000),
                        new DoorSettings(
                                c.get("challenge.secret").asString().orElse(DEMO_CHALLENGE_SECRET),
                                c.get("challenge.cost").asInt().orElse(DoorSettings.defaults().challengeCost()),
                                c.get("challenge.difficulty").asInt().orElse(DoorSettings.defaults().challengeDifficulty()),
                                Duration.ofSeconds(c.get("challenge.seconds").asLong().orElse(120L)),
                                c.get("limits.door.account").asInt().orElse(DoorSettings.defaults().accountPerMinute()),
                                c.get("limits.door.address").asInt().orElse(DoorSettings.defaults().addressPerMinute()),
                                c.get("limits.trustforwarded").asBoolean().orElse(false),
                                c.get("challenge.issuepersecond").asInt().orElse(DoorSettings.defaults().issuePerSecond()))),
                Duration.ofMillis(c.get("invariants.millis").asLong().orElse(30_000L)),
                CheckoutSettings.from(c),
                WaitlistSettings.from(c)).requireStartable();
    }

    /**
     * The configured cluster name; unset, {@code boxoffice} with an external database, and with the
     * embedded one a name of its own derived from its data folder, so two demo runs on one machine
     * (other ports, other folders) are two systems, never one grid over two databases.
     */
    static String clusterName(String configured, boolean embeddedDatabase, Path dataDir) {
        if (!configured.isBlank()) {
            return configured.trim();
        }
        if (!embeddedDatabase) {
            return "boxoffice";
        }
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(dataDir.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return "boxoffice-demo-" + java.util.HexFormat.of().formatHex(digest, 0, 5);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
