package org.boxoffice.grid;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;

import java.util.UUID;

/**
 * Membership changes as one signal: whoever must react to a member joining or leaving alike; and
 * which member does the cluster's chores.
 */
public final class Membership {

    private Membership() {
    }

    /**
     * Whether this member is the oldest of its cluster: the one that runs a chore the cluster needs
     * once, not once per member (a whole-database check, a reconciliation). When it leaves, the next
     * oldest takes over at its next tick.
     */
    public static boolean oldest(Cluster cluster) {
        return cluster.getMembers().iterator().next().localMember();
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

    /**
     * As {@link #onChange}, but only when a data member (one that owns partitions) joins or leaves.
     * A lite member owns no partition: its arrival moves no data and its departure loses no change
     * event, so whoever re-reads the grid after a change need not, and a member that joins to warm
     * up as a lite member costs the serving members nothing.
     */
    public static UUID onDataMemberChange(Cluster cluster, Runnable changed) {
        return cluster.addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                if (!event.getMember().isLiteMember()) {
                    changed.run();
                }
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                if (!event.getMember().isLiteMember()) {
                    changed.run();
                }
            }
        });
    }
}
