package org.boxoffice.grid;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;

import java.util.Arrays;
import java.util.List;

/**
 * What a member's release understands that the release before it did not, said as a member
 * attribute: a member sends its peers a new kind of call only once every member of the cluster says
 * it reads it. During a rolling upgrade the members of the previous release say nothing, so the new
 * ones speak the old language to everyone until the last old member has left.
 */
public final class GridFeatures {

    /** The member attribute listing what this member understands, comma-separated. */
    public static final String ATTRIBUTE = "boxoffice.features";
    /** Several takes on a general-admission stripe in one call ({@link StripeTakesProcessor}). */
    public static final String STRIPE_TAKES = "stripe-takes";

    /** Everything this release understands. */
    static final List<String> UNDERSTOOD = List.of(STRIPE_TAKES);

    private GridFeatures() {
    }

    /** Has a member started from {@code config} say what this release understands. */
    public static Config advertise(Config config) {
        config.getMemberAttributeConfig().setAttribute(ATTRIBUTE, String.join(",", UNDERSTOOD));
        return config;
    }

    /** Whether every member of {@code cluster} now says it understands {@code feature}. */
    public static boolean everyMember(Cluster cluster, String feature) {
        for (Member m : cluster.getMembers()) {
            String said = m.getAttribute(ATTRIBUTE);
            if (said == null || !Arrays.asList(said.split(",")).contains(feature)) {
                return false;
            }
        }
        return true;
    }
}
