package org.boxoffice.grid;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The background timers of a member: one daemon thread each, named for what it does. */
public final class Daemons {

    private Daemons() {
    }

    /** A scheduler on one daemon thread called {@code name}: it never keeps the JVM from exiting. */
    public static ScheduledExecutorService scheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
