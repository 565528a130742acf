package org.boxoffice.app;

import io.helidon.config.Config;
import org.boxoffice.mapstore.DbSettings;

import java.nio.file.Path;

/**
 * Which PostgreSQL the member writes through to ({@code boxoffice.db.*}, {@code boxoffice.data.dir},
 * {@code boxoffice.demo.seed}): an external one, or the embedded one {@link Main} starts.
 *
 * @param dataDir      where the embedded database keeps its files ({@code boxoffice.data.dir})
 * @param external     the external database, or null to run the embedded one
 * @param embeddedPort port of the embedded database (0: any free port)
 * @param poolSize     connections of the member's pool
 * @param seedDemo     seed the demo catalog into an empty database
 */
public record DatabaseSettings(Path dataDir, DbSettings external, int embeddedPort, int poolSize, boolean seedDemo) {

    /** Reads the settings under {@code boxoffice}. */
    public static DatabaseSettings from(Config boxoffice) {
        Path dataDir = Path.of(boxoffice.get("data.dir").asString().orElse("./data")).toAbsolutePath().normalize();
        Config db = boxoffice.get("db");
        String url = db.get("url").asString().orElse("");
        int pool = db.get("pool").asInt().orElse(24);
        DbSettings external = url.isBlank() ? null : new DbSettings(url, db.get("user").asString().orElse("boxoffice"),
                db.get("password").asString().orElse(""), pool);
        return new DatabaseSettings(dataDir, external, db.get("port").asInt().orElse(0), pool,
                boxoffice.get("demo.seed").asBoolean().orElse(true));
    }

    public boolean embedded() {
        return external == null;
    }
}
