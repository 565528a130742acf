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
 */
public record GridSettings(String clusterName, String bindAddress, String publicAddress, int port,
                           List<String> members, int backupCount) {

    public GridSettings {
        members = List.copyOf(members);
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("grid port out of range: " + port);
        }
        if (backupCount < 0 || backupCount > 6) {
            throw new IllegalArgumentException("backup count must be 0..6");
        }
    }

    /** A single member on loopback, for the demo and tests. */
    public static GridSettings local(String clusterName, int port) {
        return new GridSettings(clusterName, "127.0.0.1", null, port, List.of("127.0.0.1"), 1);
    }
}
