package org.boxoffice.grid;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.grid.catalog.EventListingLoader;
import org.boxoffice.grid.serialization.GridSerializers;

/**
 * Builds and starts an embedded Hazelcast member for Boxoffice.
 *
 * <p>Never contacts an outside address: phone-home off, multicast and auto-detection off, TCP-IP
 * join with an explicit member list, bound to the configured interface only.
 */
public final class GridMember {

    private GridMember() {
    }

    public static Config config(GridSettings settings, InventoryRepository inventory, CatalogRepository catalog) {
        Config config = new Config();
        config.setClusterName(settings.clusterName());
        config.setInstanceName(settings.clusterName() + "-" + settings.port() + "-" + System.nanoTime());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "jdk");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.shutdownhook.policy", "GRACEFUL");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "5");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "5");

        NetworkConfig network = config.getNetworkConfig();
        network.setPort(settings.port()).setPortAutoIncrement(true).setPortCount(20);
        network.getInterfaces().setEnabled(true).addInterface(settings.bindAddress());
        if (settings.publicAddress() != null) {
            network.setPublicAddress(settings.publicAddress());
        }
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(settings.members().isEmpty()
                ? java.util.List.of(settings.bindAddress()) : settings.members());

        config.getJetConfig().setEnabled(true);
        GridSerializers.register(config.getSerializationConfig().getCompactSerializationConfig());

        // OBJECT format: entry processors work on the live object; values are immutable and only replaced.
        MapConfig inventoryMap = new MapConfig(GridMaps.INVENTORY)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(settings.backupCount())
                .setReadBackupData(false);
        inventoryMap.setMapStoreConfig(new MapStoreConfig()
                .setEnabled(true)
                .setImplementation(new InventoryMapStore(inventory))
                .setWriteDelaySeconds(0)
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.LAZY));
        config.addMapConfig(inventoryMap);

        MapConfig allowances = new MapConfig(GridMaps.ALLOWANCES)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(settings.backupCount())
                .setMaxIdleSeconds(3600);
        allowances.setMapStoreConfig(new MapStoreConfig()
                .setEnabled(true)
                .setImplementation(new AllowanceMapLoader(inventory))
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.LAZY));
        config.addMapConfig(allowances);

        config.addMapConfig(new MapConfig(GridMaps.IDEMPOTENCY)
                .setBackupCount(settings.backupCount())
                .setTimeToLiveSeconds(24 * 3600));
        config.getMapConfig(GridMaps.IDEMPOTENCY).getEvictionConfig()
                .setEvictionPolicy(EvictionPolicy.LRU)
                .setMaxSizePolicy(MaxSizePolicy.PER_NODE)
                .setSize(2_000_000);

        // one mutable room per show, changed only by processors (no MapStore): see WaitingRoom
        config.addMapConfig(new MapConfig(org.boxoffice.grid.room.WaitingRooms.MAP)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(settings.backupCount()));

        MapConfig events = new MapConfig(GridMaps.CATALOG_EVENTS).setBackupCount(settings.backupCount());
        events.setMapStoreConfig(new MapStoreConfig()
                .setEnabled(true)
                .setImplementation(new EventListingLoader(catalog))
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.EAGER));
        config.addMapConfig(events);
        return config;
    }

    public static HazelcastInstance start(GridSettings settings, InventoryRepository inventory, CatalogRepository catalog) {
        return Hazelcast.newHazelcastInstance(config(settings, inventory, catalog));
    }
}
