package org.boxoffice.grid;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a member joins and binds ({@code boxoffice.grid.*}, read by {@link #from}).
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
     * Reads {@code boxoffice.grid.*}. The grid knows no configuration library, so the caller hands it
     * {@code setting}: the value of a key relative to {@code boxoffice.grid.} ({@code port},
     * {@code k8s.service}), empty if it is not set. An unset key takes the shipped default; an unset or
     * blank {@code cluster} takes {@code defaultClusterName} (whose rule is the caller's: it depends on
     * the database). Lists are comma separated; blank Kubernetes names mean "not set".
     *
     * @throws IllegalArgumentException naming the setting, when a value is not one it can take
     */
    public static GridSettings from(Function<String, Optional<String>> setting, String defaultClusterName) {
        String cluster = setting.apply("cluster").orElse("");
        String publicAddress = setting.apply("public").orElse("");
        return new GridSettings(
                cluster.isBlank() ? defaultClusterName : cluster.trim(),
                setting.apply("bind").orElse("127.0.0.1"),
                publicAddress.isBlank() ? null : publicAddress,
                wholeNumber(setting, "port", 5701),
                commaSeparated(setting, "members"),
                wholeNumber(setting, "backups", 1),
                join(setting.apply("join").orElse("tcp-ip")),
                blankToNull(setting.apply("k8s.service")),
                blankToNull(setting.apply("k8s.namespace")),
                blankToNull(setting.apply("k8s.servicename")),
                wholeNumber(setting, "quorum", 1),
                commaSeparated(setting, "mc.trusted"));
    }

    private static Join join(String configured) {
        String mode = configured.trim().toLowerCase(Locale.ROOT);
        return switch (mode) {
            case "tcp-ip", "tcpip" -> Join.TCP_IP;
            case "kubernetes", "k8s" -> Join.KUBERNETES;
            default -> throw new IllegalArgumentException("boxoffice.grid.join is 'tcp-ip' or 'kubernetes', not '" + mode + "'");
        };
    }

    private static int wholeNumber(Function<String, Optional<String>> setting, String key, int unset) {
        Optional<String> configured = setting.apply(key);
        try {
            return configured.map(Integer::parseInt).orElse(unset);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("boxoffice.grid." + key + " is a whole number, not '" + configured.get() + "'");
        }
    }

    private static List<String> commaSeparated(Function<String, Optional<String>> setting, String key) {
        return Arrays.stream(setting.apply(key).orElse("").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String blankToNull(Optional<String> configured) {
        return configured.filter(s -> !s.isBlank()).map(String::trim).orElse(null);
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
