package org.boxoffice.grid.waitlist;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

/**
 * "Seats (or admissions) of this show came back": sent to the member that owns the show's waitlist queue and run
 * there, where it wakes that member's {@link WaitlistOffers}. Does no work itself, so it never
 * holds an executor thread for long. A task lost on the way (its member left) only delays the
 * offer until the next periodic pass.
 */
public final class SeatsReturnedTask implements Runnable, HazelcastInstanceAware {

    private final String showId;
    private transient HazelcastInstance hz;

    public SeatsReturnedTask(String showId) {
        this.showId = showId;
    }

    public String showId() {
        return showId;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hz) {
        this.hz = hz;
    }

    @Override
    public void run() {
        if (hz != null && hz.getUserContext().get(WaitlistOffers.CONTEXT_KEY) instanceof WaitlistOffers offers) {
            offers.seatsReturned(showId);
        }
    }
}
