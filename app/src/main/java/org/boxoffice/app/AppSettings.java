package org.boxoffice.app;

import io.helidon.config.Config;
import org.boxoffice.app.admission.AdmissionSettings;
import org.boxoffice.app.auth.AuthSettings;
import org.boxoffice.app.catalog.HoldDefaults;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.mail.MailSettings;
import org.boxoffice.app.notify.NotifySettings;
import org.boxoffice.app.ops.OpsSettings;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.boxoffice.grid.GridSettings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * Everything Boxoffice reads from configuration, read once by {@link Main}: one settings record per
 * module, each read by the module's own {@code from(Config)} (the grid's by {@link GridSettings#from},
 * handed a lookup of its keys, as the grid's module knows no configuration library). Each record
 * answers for its own secrets; this one collects what keeps them from a start outside demo mode. Every
 * key can be overridden by an environment variable the way Helidon maps them ({@code BOXOFFICE_DB_URL}
 * for {@code boxoffice.db.url}); docs/configuration.md lists them all. Tests change one module's
 * settings with the {@code with} copies.
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
     * What keeps these settings from a start outside demo mode: each secret that is missing, a public
     * demo value, or too short, one line per setting naming it and its environment variable, as each
     * module's settings record answers for its own ({@code secretProblems()}: auth, unless an RS256
     * public key is set; room; challenge; tickets; webhook; the SMS provider's key with the HTTP
     * provider). Empty if nothing.
     */
    public List<String> secretProblems() {
        return Stream.of(auth.secretProblems(), admission.secretProblems(), checkout.secretProblems(),
                notices.secretProblems()).flatMap(List::stream).toList();
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
     * These settings with every secret still at its public demo value replaced by the demo's own, each
     * module's by its settings record ({@code withDemoSecrets}; {@code secretOf} gives the secret of a
     * setting by its name, generated once and kept with the demo's data). Only in demo mode; settings
     * the operator set are kept as they are.
     */
    public AppSettings withDemoSecrets(UnaryOperator<String> secretOf) {
        if (!demoMode()) {
            return this;
        }
        return withAuth(auth.withDemoSecrets(secretOf)).withAdmission(admission.withDemoSecrets(secretOf))
                .withCheckout(checkout.withDemoSecrets(secretOf));
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
