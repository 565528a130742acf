package org.boxoffice.grid;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;

import java.util.UUID;

/** Membership changes as one signal: whoever must react to a member joining or leaving alike. */
public final class Membership {

    private Membership() {
    }

    /**
     * Runs {@code changed} on Hazelcast's event thread whenever a member joins or leaves; it must
     * return quickly and never call the grid. Returns the registration, for
     * {@link Cluster#removeMembershipListener}.
     */
    public static UUID onChange(Cluster cluster, Runnable changed) {
        return cluster.addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                changed.run();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                changed.run();
            }
        });
    }
}
