package org.boxoffice.app;

import io.helidon.config.Config;
import org.boxoffice.app.admission.AdmissionSettings;
import org.boxoffice.app.admission.DoorSettings;
import org.boxoffice.app.auth.AuthSettings;
import org.boxoffice.app.catalog.HoldDefaults;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.mail.MailSettings;
import org.boxoffice.app.notify.NotifySettings;
import org.boxoffice.app.ops.OpsSettings;
import org.boxoffice.app.payments.PaymentSettings;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.boxoffice.grid.GridSettings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Everything Boxoffice reads from configuration, read once by {@link Main}: one settings record per
 * module, each read by the module's own {@code from(Config)} (the grid's by {@link GridSettings#from},
 * handed a lookup of its keys, as the grid's module knows no configuration library). Every key can be overridden by an
 * environment variable the way Helidon maps them ({@code BOXOFFICE_DB_URL} for
 * {@code boxoffice.db.url}); docs/configuration.md lists them all. Tests change one module's settings
 * with the {@code with} copies.
 *
 * @param database  which PostgreSQL, and whether the demo catalog is seeded
 * @param grid      how the grid member binds and joins ({@code boxoffice.grid.*})
 * @param inventory how often holds are swept and reconciled and seat maps rebuilt
 * @param holds     default hold rules for shows created without their own
 * @param auth      how bearer tokens are verified and whether dev tokens are issued
 * @param admission the waiting room, its door and the hold endpoint's rate limits
 * @param checkout  payments, reconciliation, tickets and ticket mail ({@code boxoffice.payments.*},
 *                  {@code boxoffice.checkout.*}, {@code boxoffice.tickets.*}, {@code boxoffice.mail.*})
 * @param waitlist  offers to the waitlists of sold-out shows ({@code boxoffice.waitlist.*})
 * @param notices   SMS and the notices of lapsing holds and offers ({@code boxoffice.sms.*}, {@code boxoffice.notices.*})
 * @param ops       what operations run by themselves (the invariants, a starting member's rehearsal)
 */
public record AppSettings(DatabaseSettings database, GridSettings grid, InventorySettings inventory,
                          HoldDefaults holds, AuthSettings auth, AdmissionSettings admission,
                          CheckoutSettings checkout, WaitlistSettings waitlist, NotifySettings notices,
                          OpsSettings ops) {

    /** Outside demo mode every secret has at least this many bytes (an HMAC-SHA256 key's size). */
    public static final int MIN_SECRET_BYTES = 32;

    public AppSettings withGrid(GridSettings grid) {
        return new AppSettings(database, grid, inventory, holds, auth, admission, checkout, waitlist, notices, ops);
    }

    public AppSettings withAuth(AuthSettings auth) {
        return new AppSettings(database, grid, inventory, holds, auth, admission, checkout, waitlist, notices, ops);
    }

    public AppSettings withAdmission(AdmissionSettings admission) {
        return new AppSettings(database, grid, inventory, holds, auth, admission, checkout, waitlist, notices, ops);
    }

    public AppSettings withCheckout(CheckoutSettings checkout) {
        return new AppSettings(database, grid, inventory, holds, auth, admission, checkout, waitlist, notices, ops);
    }

    public AppSettings withWaitlist(WaitlistSettings waitlist) {
        return new AppSettings(database, grid, inventory, holds, auth, admission, checkout, waitlist, notices, ops);
    }

    public AppSettings withNotices(NotifySettings notices) {
        return new AppSettings(database, grid, inventory, holds, auth, admission, checkout, waitlist, notices, ops);
    }

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
            checkSecret(problems, "boxoffice.auth.secret", auth.hmacSecret(), AuthSettings.DEMO_AUTH_SECRET);
        }
        checkSecret(problems, "boxoffice.room.secret", admission.passSecret(), AdmissionSettings.DEMO_ROOM_SECRET);
        checkSecret(problems, "boxoffice.challenge.secret", admission.door().challengeSecret(),
                DoorSettings.DEMO_CHALLENGE_SECRET);
        checkSecret(problems, "boxoffice.tickets.secret", checkout.ticketSecret(), CheckoutSettings.DEMO_TICKET_SECRET);
        checkSecret(problems, "boxoffice.payments.webhooksecret", checkout.payments().webhookSecret(),
                PaymentSettings.DEMO_WEBHOOK_SECRET);
        if (notices.sms().http()) {
            // a provider's key is its own length: only a missing or public one is refused
            String key = notices.sms().apiKey();
            if (key == null || key.isBlank() || key.equals(NotifySettings.DEMO_SMS_API_KEY)) {
                problems.add("boxoffice.sms.http.apikey is " + (key == null || key.isBlank() ? "not set" : "the public demo value")
                        + "; set your SMS provider's key (BOXOFFICE_SMS_HTTP_APIKEY)");
            }
        }
        return problems;
    }

    /**
     * What keeps these settings from a start outside demo mode besides the secrets: a channel that
     * would only pretend to deliver (mail logged for want of an SMTP host, the simulated SMS provider),
     * unless the operator turned that channel off. One line per setting, naming what to set. Empty if nothing.
     */
    public List<String> channelProblems() {
        List<String> problems = new ArrayList<>();
        if (checkout.mail().enabled() && checkout.mail().logOnly()) {
            problems.add("boxoffice.mail.host is not set, so ticket mails would only be logged, never sent; set your "
                    + "SMTP server (BOXOFFICE_MAIL_HOST), or turn email off (BOXOFFICE_MAIL_ENABLED=false)");
        }
        if (notices.sms().simulated()) {
            problems.add("boxoffice.sms.provider is simulator, which only logs that a message went; set http with "
                    + "your provider (BOXOFFICE_SMS_PROVIDER=http, BOXOFFICE_SMS_HTTP_URL, BOXOFFICE_SMS_HTTP_APIKEY), "
                    + "or turn SMS off (BOXOFFICE_SMS_PROVIDER=off)");
        }
        boolean sends = (checkout.mail().enabled() && !checkout.mail().logOnly())
                || !(notices.sms().off() || notices.sms().simulated());
        if (sends && MailSettings.DEFAULT_WEB_URL.equals(checkout.mail().webUrl())) {
            problems.add("boxoffice.mail.weburl is not set, so the links in ticket mails and texts would lead fans to "
                    + MailSettings.DEFAULT_WEB_URL + "; set the web app's public address "
                    + "(BOXOFFICE_MAIL_WEBURL)");
        }
        return problems;
    }

    /**
     * These settings with every secret still at its public demo value replaced by the demo's own
     * ({@code secretOf} gives the secret of a setting by its name, generated once and kept with the
     * demo's data). Only in demo mode; settings the operator set are kept as they are.
     */
    public AppSettings withDemoSecrets(UnaryOperator<String> secretOf) {
        if (!demoMode()) {
            return this;
        }
        AuthSettings a = auth;
        if (AuthSettings.DEMO_AUTH_SECRET.equals(a.hmacSecret())) {
            a = a.withHmacSecret(secretOf.apply("boxoffice.auth.secret"));
        }
        AdmissionSettings r = admission;
        if (DoorSettings.DEMO_CHALLENGE_SECRET.equals(r.door().challengeSecret())) {
            r = r.withDoor(r.door().withChallengeSecret(secretOf.apply("boxoffice.challenge.secret")));
        }
        if (AdmissionSettings.DEMO_ROOM_SECRET.equals(r.passSecret())) {
            r = r.withPassSecret(secretOf.apply("boxoffice.room.secret"));
        }
        CheckoutSettings c = checkout;
        if (CheckoutSettings.DEMO_TICKET_SECRET.equals(c.ticketSecret())) {
            c = c.withTicketSecret(secretOf.apply("boxoffice.tickets.secret"));
        }
        PaymentSettings p = c.payments();
        if (PaymentSettings.DEMO_WEBHOOK_SECRET.equals(p.webhookSecret())) {
            c = c.withPayments(p.withWebhookSecret(secretOf.apply("boxoffice.payments.webhooksecret")));
        }
        return withAuth(a).withAdmission(r).withCheckout(c);
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
     * a strong value of the operator's own, and every channel either real or turned off
     * ({@link #channelProblems}). Otherwise throws, naming every setting to change.
     */
    public AppSettings requireStartable() {
        List<String> problems = new ArrayList<>();
        if (!demoMode()) {
            problems.addAll(secretProblems());
            problems.addAll(channelProblems());
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("refusing to start outside demo mode (boxoffice.auth.devtokens is false) "
                    + "with unsafe settings:\n  - " + String.join("\n  - ", problems)
                    + "\nsee docs/configuration.md, \"Production mode\"");
        }
        if (!demoMode() && auth.devRoles()) {
            throw new IllegalStateException("boxoffice.auth.devroles is a demo setting; it needs boxoffice.auth.devtokens");
        }
        return this;
    }

    /**
     * Reads the settings under {@code boxoffice}, each module's by its own {@code from}; throws if
     * they may not start ({@link #requireStartable}: outside demo mode, a missing, demo or short secret).
     */
    public static AppSettings from(Config root) {
        Config c = root.get("boxoffice");
        DatabaseSettings database = DatabaseSettings.from(c);
        // the grid knows no configuration library: it reads its keys through this lookup
        GridSettings grid = GridSettings.from(key -> c.get("grid." + key).asString().asOptional(),
                defaultClusterName(database));
        return new AppSettings(database, grid, InventorySettings.from(c), HoldDefaults.from(c),
                AuthSettings.from(c), AdmissionSettings.from(c), CheckoutSettings.from(c), WaitlistSettings.from(c),
                NotifySettings.from(c), OpsSettings.from(c)).requireStartable();
    }

    /**
     * The grid's cluster name when {@code boxoffice.grid.cluster} is not set: {@code boxoffice} with an
     * external database, and with the embedded one a name of its own derived from its data folder, so
     * two demo runs on one machine (other ports, other folders) are two systems, never one grid over
     * two databases.
     */
    private static String defaultClusterName(DatabaseSettings database) {
        if (!database.embedded()) {
            return "boxoffice";
        }
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(database.dataDir().toString().getBytes(StandardCharsets.UTF_8));
            return "boxoffice-demo-" + java.util.HexFormat.of().formatHex(digest, 0, 5);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
