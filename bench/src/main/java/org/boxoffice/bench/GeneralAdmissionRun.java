package org.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.check.AreaState;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.JfrProfile;
import org.boxoffice.bench.report.SystemOutcome;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Locale;

/**
 * Boxoffice's part of {@code --stampede --general-admission CAPACITY}: start the service (or use
 * {@code --url}), sign the crowd in, then on fresh shows each with one standing area ({@value #AREA})
 * of the capacity: warm up, sweep, sell, and check the area against the referee. The crowd is the
 * seated stampede's (4 buyers per admission wanting 1-4 each), asking by count.
 */
final class GeneralAdmissionRun {

    /** The area every general-admission show of the bench sells, Boxoffice's and the baselines'. */
    static final String AREA = "FLOOR";
    /** The seated part of each of Boxoffice's shows: a show is created with seats; nobody asks for them. */
    private static final int SHOW_SEATS = 50;

    private final BenchOptions o;
    private final RunEnvironment env;
    private final Database db;
    private final SystemRun system;

    GeneralAdmissionRun(RunEnvironment env, Database db, SystemRun system) {
        this.o = env.options();
        this.env = env;
        this.db = db;
        this.system = system;
    }

    SystemOutcome run(Path work) throws Exception {
        ServiceLauncher.Started started = ServiceLauncher.startOrUse(env, db, work);
        ChildProcess service = started.process();
        BoxofficeApi api = started.api();
        String admin = api.adminToken();
        long t0 = System.nanoTime();
        List<String> tokens = api.tokens(Buyer.accountIds(o.buyers()), o.connections);
        FlashSaleBench.log(String.format(Locale.ROOT, "%,d buyer tokens in %.1f s", tokens.size(), (System.nanoTime() - t0) / 1e9));
        int capacity = o.generalAdmission;
        int warmCapacity = Math.min(capacity, SystemRun.WARMUP_SEATS);
        ShowPlan plan = ShowPlan.of(ShowPlan.regularSections(capacity));
        ShowPlan warmPlan = ShowPlan.of(ShowPlan.regularSections(warmCapacity));
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed, plan, tokens);
        long pid = service != null ? service.pid() : -1;

        system.warmUp("boxoffice", crowd, pid, () -> newArea(api, admin, "boxoffice-warmup", warmCapacity, warmPlan));
        Sweep.Result sweep = system.sweep("boxoffice", crowd, () -> newArea(api, admin, "boxoffice", capacity, plan));
        Target target = newArea(api, admin, "boxoffice", capacity, plan);
        FlashSaleBench.log(String.format(Locale.ROOT, "show %s: area %s of %,d admissions", target.showId(), AREA, capacity));
        if (db != null) {
            db.checkpoint();
        }
        boolean profiling = o.profile && service != null;
        if (profiling) {
            JfrProfile.startWithCpuTime(env.jcmd(), pid);
        }
        SystemOutcome outcome = system.measureArea(target, crowd, sweep, db, pid, () -> {
            if (db == null) {
                return null;
            }
            try (Connection c = db.connect()) {
                return AreaState.boxoffice(c, target.showId(), AREA);
            }
        }, () -> {
            if (!profiling) {
                return null;
            }
            Path file = env.out().resolve("service.jfr");
            JfrProfile.dumpAndStop(env.jcmd(), pid, file);
            return JfrProfile.summarize(file);
        });
        if (service != null) {
            env.resources().remove(service);
            service.close();
        }
        return outcome;
    }

    /** A fresh show with one area of {@code capacity} admissions. */
    private Target newArea(BoxofficeApi api, String admin, String name, int capacity, ShowPlan plan) {
        JsonNode created = api.createShow(admin, ShowPlan.createRequest(o.event, ShowPlan.regularSections(SHOW_SEATS),
                ShowPlan.HOLD_SECONDS, null, null));
        String showId = created.path("showId").asText();
        api.createArea(admin, showId, AREA, capacity);
        return new Target(name, api.host(), api.port(), showId, plan, AREA);
    }
}
