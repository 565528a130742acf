package org.boxoffice.grid.member;

import org.boxoffice.grid.Daemons;

import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.grid.GridMaps;

import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Destroys the rehearsal maps ({@link GridMaps#REHEARSAL_PREFIX}) of members that are no longer in
 * the cluster: a member destroys its own when its rehearsal ends or fails, but one that dies
 * mid-rehearsal leaves them behind. Only the oldest member sweeps, every {@code everySeconds}.
 */
final class RehearsalSweeper implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RehearsalSweeper.class.getName());

    private final HazelcastInstance hz;
    private final ScheduledExecutorService timer = Daemons.scheduler("rehearsal-sweeper");

    RehearsalSweeper(HazelcastInstance hz, long everySeconds) {
        this.hz = hz;
        timer.scheduleWithFixedDelay(this::sweepIfOldest, everySeconds, everySeconds, TimeUnit.SECONDS);
    }

    private void sweepIfOldest() {
        try {
            if (hz.getLifecycleService().isRunning() && hz.getCluster().getMembers().iterator().next().localMember()) {
                sweep();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "rehearsal sweep failed; trying again on the next one", e);
        }
    }

    /** Destroys the rehearsal maps of members not in the cluster now; returns how many. */
    int sweep() {
        Set<String> present = hz.getCluster().getMembers().stream()
                .map(m -> GridMaps.rehearsalTag(m.getUuid())).collect(Collectors.toSet());
        int destroyed = 0;
        for (DistributedObject o : hz.getDistributedObjects()) {
            String tag = GridMaps.rehearsalTagOf(o.getName());
            if (tag != null && !present.contains(tag)) {
                o.destroy();
                destroyed++;
                LOG.info(() -> "destroyed " + o.getName() + ": the rehearsal of a member that has left");
            }
        }
        return destroyed;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
