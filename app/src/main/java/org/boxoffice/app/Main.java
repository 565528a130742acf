package org.boxoffice.app;

import com.zaxxer.hikari.HikariDataSource;
import io.helidon.config.Config;
import io.helidon.logging.common.LogConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import org.boxoffice.app.http.ErrorHandlers;
import org.boxoffice.app.http.Http1Guard;
import org.boxoffice.mapstore.DataSources;
import org.boxoffice.mapstore.DbSettings;
import org.boxoffice.mapstore.DemoSecrets;
import org.boxoffice.grid.member.RefereeMismatchException;
import org.boxoffice.mapstore.EmbeddedDatabase;
import org.boxoffice.mapstore.Migrations;

import java.util.logging.Logger;

/**
 * Starts Boxoffice: reads the configuration once, starts the embedded PostgreSQL unless an
 * external one is configured, migrates it, starts the grid member (which seeds the demo catalog
 * into an empty database first) and then the web server. On shutdown the web server stops taking
 * requests first, then the member leaves the cluster gracefully, then the database closes.
 */
public final class Main {

    private static final Logger LOG = Logger.getLogger(Main.class.getName());
    /** The JDK's property for the size of the common fork-join pool, read once when the pool is made. */
    static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private Main() {
    }

    /**
     * The web server as configured under {@code server} ({@code connection-options.tcp-no-delay} on
     * by default), with {@link #listenerDefaults}.
     */
    static WebServerConfig.Builder serverBuilder(Config server) {
        WebServerConfig.Builder builder = WebServer.builder().config(server);
        listenerDefaults(builder);
        return builder;
    }

    /**
     * What every listener of the service has, in production and in the tests: requests that fail
     * before routing (unreadable, over a limit) are answered with the JSON error body, and a client
     * that stops sending in the middle of a request is closed after the idle timeout, as one that
     * sends nothing is ({@link Http1Guard}).
     */
    public static void listenerDefaults(WebServerConfig.Builder builder) {
        builder.directHandlers(ErrorHandlers.directHandlers());
        Http1Guard.install(builder);
    }

    /**
     * Gives the JVM's common fork-join pool at least two threads, before anything makes the pool.
     * With one processor (a container limited to less than two cores, as grid members often are)
     * the pool would get a parallelism of 1, and then both the JDK's {@code CompletableFuture} and
     * Hazelcast run every asynchronous callback on a thread of its own, started for it and thrown
     * away: a member answering its peers' operations starts thousands of threads a minute, and
     * measured in a 0.4-core quota that cost more CPU than serving the requests. A parallelism set
     * on the command line is kept.
     */
    static void callbacksOnThePool() {
        if (System.getProperty(COMMON_POOL_PARALLELISM) == null && Runtime.getRuntime().availableProcessors() < 3) {
            System.setProperty(COMMON_POOL_PARALLELISM, "2");
        }
    }

    public static void main(String[] args) {
        callbacksOnThePool();
        LogConfig.configureRuntime();
        Config config = Config.create();
        AppSettings configured = AppSettings.from(config);

        DatabaseSettings database = configured.database();
        EmbeddedDatabase embedded = database.embedded()
                ? EmbeddedDatabase.start(database.dataDir().resolve("postgres"), database.embeddedPort())
                : null;
        DbSettings db = embedded == null ? database.external() : embedded.settings(database.poolSize());
        HikariDataSource dataSource = DataSources.pooled(db);
        Migrations.migrate(dataSource);
        // a demo never runs on the public secrets of the configuration: its own, made on its first start
        AppSettings settings = configured.withDemoSecrets(new DemoSecrets(dataSource)::secret);
        Boxoffice app;
        try {
            app = settings.ops().rehearses() ? Boxoffice.startToRehearse(settings, dataSource, System::currentTimeMillis)
                    : Boxoffice.start(settings, dataSource, System::currentTimeMillis);
        } catch (RefereeMismatchException e) {
            LOG.severe(e.getMessage());
            dataSource.close();
            if (embedded != null) {
                embedded.close();
            }
            System.exit(3);
            return;
        }

        if (settings.ops().rehearses()) {
            app.rehearsalDue();
        }
        WebServer server = serverBuilder(config.get("server"))
                .shutdownHook(false)
                .addFeature(app.observe())
                .routing(app::routing)
                .build()
                .start();
        app.serving(server.port());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            app.close();
            dataSource.close();
            if (embedded != null) {
                embedded.close();
            }
        }, "boxoffice-shutdown"));
        if (settings.ops().rehearses()) {
            // readiness waits for it; liveness does not
            app.rehearse(java.net.URI.create("http://" + ownAddress(config.get("server.host").asString().orElse("0.0.0.0"))
                    + ":" + server.port()), settings.ops().rehearsal());
        }
        LOG.info(() -> "Boxoffice is serving on http://localhost:" + server.port() + " (database: "
                + (embedded != null ? "embedded, data in " + database.dataDir() : "external") + ")");
        if (settings.demoMode()) {
            String host = config.get("server.host").asString().orElse("0.0.0.0");
            LOG.warning(() -> "DEMO MODE: anyone who reaches this service can mint tokens (boxoffice.auth.devtokens)"
                    + (settings.auth().devRoles() ? ", admin ones included (boxoffice.auth.devroles)" : "")
                    + " (its signing secrets are its own, made on its first start and kept in its database). Listening on " + host
                    + (isLoopback(host) ? " (this machine only)." : ": NOT loopback, others on the network can reach it.")
                    + " For production, see docs/configuration.md.");
        }
    }

    /** Where this process reaches its own listener: loopback when it listens on every interface. */
    private static String ownAddress(String host) {
        return host.isBlank() || host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1"
                : host.contains(":") ? "[" + host + "]" : host;
    }

    private static boolean isLoopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }
}
