package org.boxoffice.grid;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code boxoffice.grid.*} as {@link GridSettings#from} reads it, from a plain map of settings. */
class GridSettingsTest {

    private static GridSettings read(Map<String, String> settings) {
        return GridSettings.from(key -> Optional.ofNullable(settings.get(key)), "default-cluster");
    }

    @Test
    void nothingSet_isOneMemberOnLoopback_joiningByTcpIp_underTheDefaultClusterName() {
        GridSettings grid = read(Map.of());
        assertEquals(new GridSettings("default-cluster", "127.0.0.1", null, 5701, List.of(), 1, GridSettings.Join.TCP_IP,
                null, null, null, 1, List.of()), grid);
    }

    @Test
    void everySetting_isReadFromItsKey() {
        Map<String, String> m = new HashMap<>();
        m.put("cluster", " shop ");
        m.put("bind", "0.0.0.0");
        m.put("public", "10.0.0.7");
        m.put("port", "5801");
        m.put("members", " 10.0.0.7:5801, ,10.0.0.8 ");
        m.put("backups", "2");
        m.put("join", " Kubernetes ");
        m.put("k8s.service", " boxoffice-grid.shop.svc.cluster.local ");
        m.put("k8s.namespace", "shop");
        m.put("k8s.servicename", "boxoffice-grid");
        m.put("quorum", "2");
        m.put("mc.trusted", "10.0.0.1,10.0.0.2");
        assertEquals(new GridSettings("shop", "0.0.0.0", "10.0.0.7", 5801, List.of("10.0.0.7:5801", "10.0.0.8"), 2,
                GridSettings.Join.KUBERNETES, "boxoffice-grid.shop.svc.cluster.local", "shop", "boxoffice-grid", 2,
                List.of("10.0.0.1", "10.0.0.2")), read(m));
    }

    @Test
    void blankNames_areNotSet_andABlankClusterTakesTheDefault() {
        GridSettings grid = read(Map.of("cluster", " ", "public", "", "k8s.service", " ", "k8s.namespace", "",
                "k8s.servicename", "", "members", "", "mc.trusted", " "));
        assertEquals("default-cluster", grid.clusterName());
        assertNull(grid.publicAddress());
        assertNull(grid.kubernetesServiceDns());
        assertNull(grid.kubernetesNamespace());
        assertNull(grid.kubernetesServiceName());
        assertEquals(List.of(), grid.members());
        assertEquals(List.of(), grid.managementCenterTrusted());
    }

    @Test
    void theJoinMode_acceptsItsShortNames() {
        assertEquals(GridSettings.Join.TCP_IP, read(Map.of("join", "tcpip")).join());
        assertEquals(GridSettings.Join.KUBERNETES, read(Map.of("join", "k8s")).join());
    }

    @Test
    void anUnknownJoinMode_isRefused_namingTheSettingAndItsTwoModes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(Map.of("join", " Multicast ")));
        assertEquals("boxoffice.grid.join is 'tcp-ip' or 'kubernetes', not 'multicast'", e.getMessage());
    }

    @Test
    void aNumberThatIsNone_isRefused_namingTheSetting() {
        for (String key : new String[] {"port", "backups", "quorum"}) {
            for (String bad : new String[] {"", "two", " 2", "1.5"}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(Map.of(key, bad)),
                        key + "=" + bad);
                assertEquals("boxoffice.grid." + key + " is a whole number, not '" + bad + "'", e.getMessage());
            }
        }
    }

    @Test
    void numbersOutOfRange_areRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> read(Map.of("port", "70000"))).getMessage()
                .contains("port"));
        assertThrows(IllegalArgumentException.class, () -> read(Map.of("backups", "7")));
        assertThrows(IllegalArgumentException.class, () -> read(Map.of("quorum", "0")));
    }
}
