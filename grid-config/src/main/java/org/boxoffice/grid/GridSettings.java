package org.boxoffice.grid;

import java.util.List;

/**
 * How a member joins and binds.
 *
 * @param clusterName   members only join members of the same name
 * @param bindAddress   the interface the member binds to (loopback for the embedded demo)
 * @param publicAddress the address other members use to reach this one, or null for bindAddress
 * @param port          first port to try; the next ones are tried when it is taken
 * @param members       TCP-IP member list ({@code host[:port]}); empty means only this member
 * @param backupCount   synchronous backups of every entry (1 survives the loss of one member)
 * @param join          TCP_IP (the member list) or KUBERNETES (Hazelcast's Kubernetes discovery)
 * @param kubernetesServiceDns headless service DNS name (DNS-lookup mode), or null for API mode
 * @param kubernetesNamespace  namespace for API mode, or null for the pod's own
 * @param kubernetesServiceName service name for API mode, or null
 * @param quorum        seat writes need at least this many members (split-brain protection); 1 = off
 * @param managementCenterTrusted interfaces Management Center may connect from (empty: any)
 */
public record GridSettings(String clusterName, String bindAddress, String publicAddress, int port,
                           List<String> members, int backupCount, Join join, String kubernetesServiceDns,
                           String kubernetesNamespace, String kubernetesServiceName, int quorum,
                           List<String> managementCenterTrusted) {

    public enum Join { TCP_IP, KUBERNETES }

    public GridSettings {
        members = List.copyOf(members);
        managementCenterTrusted = List.copyOf(managementCenterTrusted);
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("grid port out of range: " + port);
        }
        if (backupCount < 0 || backupCount > 6) {
            throw new IllegalArgumentException("backup count must be 0..6");
        }
        if (quorum < 1) {
            throw new IllegalArgumentException("quorum must be at least 1");
        }
    }

    /**
     * A member on loopback that joins {@code members} ({@code host[:port]}) by TCP-IP: one backup of
     * every entry, no split-brain protection, Management Center from anywhere. Members in one JVM
     * (tests) or one machine; change what else differs with the {@code with} copies.
     */
    public static GridSettings loopback(String clusterName, int port, List<String> members) {
        return new GridSettings(clusterName, "127.0.0.1", null, port, members, 1, Join.TCP_IP, null, null, null, 1,
                List.of());
    }

    /** The same settings with another quorum. */
    public GridSettings withQuorum(int minimumMembers) {
        return new GridSettings(clusterName, bindAddress, publicAddress, port, members, backupCount, join,
                kubernetesServiceDns, kubernetesNamespace, kubernetesServiceName, minimumMembers, managementCenterTrusted);
    }

    /** The same settings with another number of backups. */
    public GridSettings withBackupCount(int backups) {
        return new GridSettings(clusterName, bindAddress, publicAddress, port, members, backups, join,
                kubernetesServiceDns, kubernetesNamespace, kubernetesServiceName, quorum, managementCenterTrusted);
    }
}
