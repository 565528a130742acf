package org.boxoffice.grid.member;

import com.hazelcast.config.Config;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.config.QueueConfig;
import com.hazelcast.config.QueueStoreConfig;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.KubernetesConfig;
import com.hazelcast.config.MergePolicyConfig;
import com.hazelcast.config.SplitBrainProtectionConfig;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.spi.merge.DiscardMergePolicy;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionOn;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.collection.QueueStoreFactory;
import com.hazelcast.map.MapLoader;
import com.hazelcast.map.MapStore;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.grid.AllowanceKey;
import org.boxoffice.grid.BlockKey;
import org.boxoffice.grid.GridFeatures;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.grid.StripeKey;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.grid.catalog.EventListing;
import org.boxoffice.grid.serialization.GridSerializers;
import org.boxoffice.grid.waitlist.WaitlistOffers;
import org.boxoffice.grid.waitlist.Waitlists;

/**
 * Builds and starts an embedded Hazelcast member for Boxoffice.
 *
 * <p>Never contacts an outside address: phone-home off, multicast and auto-detection off, TCP-IP
 * join with an explicit member list, bound to the configured interface only.
 */
public final class GridMember {

    /** The split-brain protection guarding seat writes and waiting-room positions. */

    /** The member attribute naming the member's referee (see {@link #start(GridSettings, Stores, String)}). */
    public static final String REFEREE_ATTRIBUTE = "boxoffice.referee";

    private static void joinIfSameReferee(HazelcastInstance hz, GridSettings settings, String referee) {
        String id = idOf(referee);
        for (com.hazelcast.cluster.Member other : hz.getCluster().getMembers()) {
            String theirs = other.getAttribute(REFEREE_ATTRIBUTE);
            if (other.localMember() || theirs == null || idOf(theirs).equals(id)) {
                continue;
            }
            hz.getLifecycleService().terminate(); // a lite member: it owns nothing to hand over
            throw new RefereeMismatchException("this member's referee is " + referee + ", but member " + other.getAddress()
                    + " of cluster '" + settings.clusterName() + "' writes to " + theirs + ". A member never joins a "
                    + "grid whose referee is another database: give this service a cluster name of its own "
                    + "(boxoffice.grid.cluster) or point it at the cluster's database.");
        }
    }

    /** How many other members of the cluster own partitions (are not lite members). */
    private static long othersOwningData(HazelcastInstance hz) {
        return hz.getCluster().getMembers().stream().filter(m -> !m.localMember() && !m.isLiteMember()).count();
    }

    /**
     * A member waiting to be warm is promoted at once if fewer than {@code quorum} other members own
     * the data (members left, or the cluster was below its quorum when it joined): a cluster without
     * its quorum of data members refuses seat writes, a cold member can take them.
     */
    private static void promoteIfNeeded(HazelcastInstance hz, int quorum) {
        org.boxoffice.grid.Membership.onChange(hz.getCluster(), () -> {
            if (hz.getCluster().getLocalMember().isLiteMember() && othersOwningData(hz) < quorum) {
                // not on the event thread: a promotion waits for the cluster
                Thread.ofVirtual().name("promote-alone").start(() -> {
                    try {
                        if (promote(hz)) {
                            java.util.logging.Logger.getLogger(GridMember.class.getName()).warning(
                                    "too few members own the data: this member owns partitions before it is warm");
                        }
                    } catch (RuntimeException e) {
                        java.util.logging.Logger.getLogger(GridMember.class.getName()).log(java.util.logging.Level.WARNING,
                                "could not take over partitions", e);
                    }
                });
            }
        });
    }

    /**
     * Makes this member a data member, if it is still a lite one: from now on partitions migrate to
     * it. Returns whether it was promoted now.
     */
    public static boolean promote(HazelcastInstance hz) {
        synchronized (hz) {
            if (!hz.getCluster().getLocalMember().isLiteMember()) {
                return false;
            }
            hz.getCluster().promoteLocalLiteMember();
            return true;
        }
    }

    /**
     * Waits, at most {@code max}, until this member owns partitions and none is migrating: a member
     * just promoted then takes fans' requests once its share has arrived rather than in the middle
     * of the move. Returns whether it settled in time.
     */
    public static boolean awaitSettled(HazelcastInstance hz, java.time.Duration max) throws InterruptedException {
        long until = System.nanoTime() + max.toNanos();
        com.hazelcast.cluster.Member me = hz.getCluster().getLocalMember();
        while (System.nanoTime() < until && hz.getLifecycleService().isRunning()) {
            boolean owns = hz.getPartitionService().getPartitions().stream().anyMatch(p -> me.equals(p.getOwner()));
            if (owns && hz.getPartitionService().isClusterSafe()) {
                return true;
            }
            Thread.sleep(250);
        }
        return false;
    }

    private static String idOf(String referee) {
        int space = referee.indexOf(' ');
        return space < 0 ? referee : referee.substring(0, space);
    }

    /** Hazelcast's executor for offloaded MapStore calls (5.2+), and how many threads it gets. */
    static final String MAP_STORE_EXECUTOR = "hz:map-store-offloadable";
    static final int STORES_IN_FLIGHT = 64;
    /** How long an operation on a migrating partition waits before it is sent again (after five quick tries). */
    static final int RETRY_PAUSE_MILLIS = 50;
    /** How often Hazelcast collects its metrics (for Management Center). */
    static final int METRICS_SECONDS = 15;
    /**
     * A member that sends no heartbeat for this long is taken out of the cluster and its partitions
     * are served from their backups (Hazelcast's default: 60 s, with a heartbeat every 5 s). A member
     * that dies with its node or behind a cut link closes no connection: until it is taken out, every
     * claim on its partitions waits. {@code -Dhazelcast.max.no.heartbeat.seconds} overrides it.
     */
    static final int NO_HEARTBEAT_SECONDS = 10;
    /**
     * The longest a write waits for its backup's acknowledgement (Hazelcast's default: 5 s). A backup
     * that reaches a replica which missed an earlier one (it was moving, or promoted) is dropped
     * unanswered while the replica syncs, and the write waited all of it; every such write had been
     * made durable in the referee already.
     */
    static final int BACKUP_ACK_MILLIS = 1_000;
    /**
     * Connection failures to one member (refused, reset) count toward suspecting it only when more
     * than this apart; the third suspects it. A killed member's peers dial it again as their claims
     * retry (every 50 ms), so it is suspected some 100 ms after it died instead of 300. Silent
     * members (a dead node, a cut link) are found by heartbeats instead ({@link #NO_HEARTBEAT_SECONDS}).
     */
    static final int CONNECTION_FAULT_INTERVAL_MILLIS = 20;
    /** Partitions that move at the same time after a join or a leave. */
    static final int PARALLEL_MIGRATIONS = 1;
    /** The longest a leaving member waits for its partitions to be handed over (Hazelcast's default: 600 s). */
    public static final int GRACEFUL_SHUTDOWN_SECONDS = 100;

    private GridMember() {
    }

    /**
     * What the member loads from and writes through to: the durable referee's stores (the
     * PostgreSQL ones live in the {@code mapstore} module; grid tests pass in-memory ones).
     *
     * @param inventory  write-through store of the seat blocks
     * @param listings   loader of the catalog's event listings
     * @param waitlists  store of the waitlist queues, or null to keep them in memory only (grid tests of other parts)
     * @param admissions write-through store of the general-admission stripes, or null to keep them in memory only
     */
    public record Stores(MapStore<BlockKey, SeatBlock> inventory, MapLoader<String, EventListing> listings,
                         QueueStoreFactory<WaitlistEntry> waitlists, MapStore<StripeKey, AdmissionStripe> admissions) {
        public Stores {
            java.util.Objects.requireNonNull(inventory, "inventory");
            java.util.Objects.requireNonNull(listings, "listings");
        }

        /** Stores without general admission's (its stripes then live in memory only: grid tests of other parts). */
        public Stores(MapStore<BlockKey, SeatBlock> inventory, MapLoader<String, EventListing> listings,
                      QueueStoreFactory<WaitlistEntry> waitlists) {
            this(inventory, listings, waitlists, null);
        }
    }

    /**
     * Gives the offloaded write-through stores a pool of their own threads. Hazelcast creates the
     * offload executor on first use as a "cached" delegate over its shared pool: each store then
     * starts a worker that polls for 1 ms after its task and exits, so in a sell-out every store
     * pays a thread hand-off, a timed park and a worker's exit. A pool of {@link #STORES_IN_FLIGHT}
     * resident threads takes each store with one wake-up. They are virtual threads: with platform
     * workers, the kernel woke one for every store, and those wake-ups were a third of a sell-out's
     * thread switches; a virtual worker is a continuation scheduled on the request carriers, and its
     * wait for the group commit parks it without holding a carrier. Hazelcast has no public switch for this
     * executor's kind, so it is registered through the member's execution service before the
     * first store; where that fails (the executor already exists), the member keeps Hazelcast's.
     */
    static void storesOnOwnThreads(HazelcastInstance hz) {
        try {
            if (hz instanceof com.hazelcast.instance.impl.HazelcastInstanceProxy proxy) {
                proxy.getOriginal().node.getNodeEngine().getExecutionService().register(MAP_STORE_EXECUTOR,
                        STORES_IN_FLIGHT, Integer.MAX_VALUE, Thread.ofVirtual().name("boxoffice-store-", 0).factory());
            }
        } catch (RuntimeException e) {
            java.util.logging.Logger.getLogger(GridMember.class.getName()).log(java.util.logging.Level.INFO,
                    "write-through stores stay on Hazelcast's shared offload executor", e);
        }
    }

    /**
     * Starts a private member of a cluster of its own, for a starting member's rehearsal of the hold
     * path ({@code app: Rehearsal}): the configuration of a real member (processors, offloaded
     * stores, serialization), on an ephemeral loopback port, joining nobody, no backups; its maps
     * ({@link GridMaps#REHEARSAL_PREFIX}) have a store that writes nowhere. Nothing it does reaches
     * the cluster or the referee; it is shut down when the rehearsal ends.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static HazelcastInstance startStage() {
        MapStore nowhere = new RehearsalStore();
        GridSettings own = GridSettings.loopback("boxoffice-stage-" + java.util.UUID.randomUUID(), 1, java.util.List.of())
                .withBackupCount(0);
        Config config = config(own, new Stores(nowhere, nowhere, null));
        config.getNetworkConfig().setPort(0).setPortAutoIncrement(false);
        config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(false);
        config.getJetConfig().setEnabled(false);
        config.getMetricsConfig().setEnabled(false);
        // its log would only say that it joins nobody, as a warning; a rehearsal reports what it did itself
        config.setProperty("hazelcast.logging.type", "none");
        config.addMapConfig(new MapConfig(GridMaps.REHEARSAL_PREFIX + "*")
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(0)
                .setMapStoreConfig(new MapStoreConfig()
                        .setEnabled(true)
                        .setImplementation(nowhere)
                        .setWriteDelaySeconds(0)
                        .setInitialLoadMode(MapStoreConfig.InitialLoadMode.LAZY)));
        config.addMapConfig(new MapConfig(GridMaps.REHEARSAL_PREFIX + "allowances")
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(0));
        HazelcastInstance stage = Hazelcast.newHazelcastInstance(config);
        storesOnOwnThreads(stage);
        return stage;
    }

    /** The member's configuration. */
    public static Config config(GridSettings settings, Stores stores) {
        Config config = GridFeatures.advertise(new Config());
        config.setClusterName(settings.clusterName());
        config.setInstanceName(settings.clusterName() + "-" + settings.port() + "-" + System.nanoTime());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "jdk");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.shutdownhook.policy", "GRACEFUL");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        // a leaving member hands its partitions over before it exits; it must be done well inside
        // the pod's grace period (120 s, less the 5 s preStop), or Kubernetes kills it mid-handover
        config.setProperty("hazelcast.graceful.shutdown.max.wait", String.valueOf(GRACEFUL_SHUTDOWN_SECONDS));
        // an operation that reaches a partition while it migrates is sent again: five times at once,
        // then after this pause; Hazelcast's 500 ms made every claim caught by a join or a leave wait
        // half a second. The retry count keeps the total wait Hazelcast's (250 x 500 ms).
        config.setProperty("hazelcast.invocation.retry.pause.millis", String.valueOf(RETRY_PAUSE_MILLIS));
        config.setProperty("hazelcast.invocation.max.retry.count", String.valueOf(125_000 / RETRY_PAUSE_MILLIS));
        // a heartbeat every second, and a member silent for NO_HEARTBEAT_SECONDS is out; a -D wins,
        // because a member's own configuration would otherwise win over it
        config.setProperty("hazelcast.heartbeat.interval.seconds",
                System.getProperty("hazelcast.heartbeat.interval.seconds", "1"));
        config.setProperty("hazelcast.max.no.heartbeat.seconds",
                System.getProperty("hazelcast.max.no.heartbeat.seconds", String.valueOf(NO_HEARTBEAT_SECONDS)));
        // a member whose connections fail (refused or reset: its process died) is suspected after the
        // third failure, each more than this apart (Hazelcast: 100 ms, so about 300 ms at the rate claims
        // retry); a killed master's partitions then waited that long before anyone took them over; a -D wins
        config.setProperty("hazelcast.connection.monitor.interval",
                System.getProperty("hazelcast.connection.monitor.interval", String.valueOf(CONNECTION_FAULT_INTERVAL_MILLIS)));
        // one partition moves at a time (Hazelcast: ten): a claim waits only if it reaches the one
        // partition that is moving, instead of one in 27, so a join or a leave mid-sale slows one
        // claim in hundreds for a few seconds longer rather than one in five; a -D wins
        config.setProperty("hazelcast.partition.max.parallel.migrations",
                System.getProperty("hazelcast.partition.max.parallel.migrations", String.valueOf(PARALLEL_MIGRATIONS)));
        // a write whose backup was dropped (its replica is syncing after a migration or a promotion)
        // waits this long for an answer that never comes, then completes; a -D wins
        config.setProperty("hazelcast.operation.backup.timeout.millis",
                System.getProperty("hazelcast.operation.backup.timeout.millis", String.valueOf(BACKUP_ACK_MILLIS)));
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
        if (settings.join() == GridSettings.Join.KUBERNETES) {
            KubernetesConfig k8s = join.getKubernetesConfig().setEnabled(true);
            if (settings.kubernetesServiceDns() != null) {
                k8s.setProperty("service-dns", settings.kubernetesServiceDns());
            } else {
                if (settings.kubernetesNamespace() != null) {
                    k8s.setProperty("namespace", settings.kubernetesNamespace());
                }
                if (settings.kubernetesServiceName() != null) {
                    k8s.setProperty("service-name", settings.kubernetesServiceName());
                }
            }
        } else {
            join.getTcpIpConfig().setEnabled(true).setMembers(settings.members().isEmpty()
                    ? java.util.List.of(settings.bindAddress()) : settings.members());
        }

        config.getJetConfig().setEnabled(true);
        // Management Center: metrics on, no scripts or console from it, only from trusted interfaces
        config.getMetricsConfig().setEnabled(true);
        // collected every 15 s instead of Hazelcast's 5: collecting every map's and partition's
        // metrics was a seventh of an idle member's CPU, and Management Center charts minutes
        config.getMetricsConfig().setCollectionFrequencySeconds(METRICS_SECONDS);
        // nobody reads Hazelcast's metrics over JMX (the service exports its own at /observe/metrics):
        // publishing every metric to MBeans each collection was a member's steady background cost
        config.getMetricsConfig().getJmxConfig().setEnabled(false);
        config.getManagementCenterConfig().setScriptingEnabled(false).setConsoleEnabled(false)
                .setTrustedInterfaces(new java.util.HashSet<>(settings.managementCenterTrusted()));
        // Below a quorum of members, seat writes are refused rather than risked (split-brain
        // protection). With a quorum of 1 there is nothing to protect, and Hazelcast reports a
        // fresh single member as below any protection until its first heartbeat, so it is left out.
        // It counts the member list. Hazelcast's "recently active" function (members count while
        // their heartbeats arrive) was tried for a member that wakes up from a stop with a stale
        // list: under a sale it held seat writes on healthy members for 5 s at a time (backup
        // timeouts); the health probes keep a woken member out of the load balancer instead.
        if (settings.quorum() > 1) {
            config.addSplitBrainProtectionConfig(new SplitBrainProtectionConfig(GridMaps.QUORUM, true, settings.quorum())
                    .setProtectOn(SplitBrainProtectionOn.WRITE));
        }
        GridSerializers.register(config.getSerializationConfig().getCompactSerializationConfig());

        // OBJECT format: entry processors work on the live object; values are immutable and only replaced.
        MapConfig inventoryMap = new MapConfig(GridMaps.INVENTORY)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(settings.backupCount())
                .setReadBackupData(false)
                // no split-brain protection on the map itself: it would also refuse the MapLoader's
                // key-load bookkeeping on a member that starts alone, leaving the map "still loading"
                // for good; Inventory refuses seat writes below the quorum instead
                // after a split heals, the merging side's blocks are dropped; the whole map is then
                // reloaded from PostgreSQL (see start()), which never lost a write
                .setMergePolicyConfig(new MergePolicyConfig(DiscardMergePolicy.class.getName(), 100));
        inventoryMap.setMapStoreConfig(new MapStoreConfig()
                .setEnabled(true)
                .setImplementation(stores.inventory())
                .setWriteDelaySeconds(0)
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.LAZY));
        config.addMapConfig(inventoryMap);
        // Write-through stores run on this executor, off the partition threads, and wait there for
        // the referee's group commit: it needs a thread per store in flight (one per partition at
        // most) for the stores of many partitions to share a commit. Hazelcast's default is sized
        // by cores, which on a small machine lets only a couple of stores wait at once.
        config.addExecutorConfig(new ExecutorConfig(MAP_STORE_EXECUTOR).setPoolSize(STORES_IN_FLIGHT));

        // general admission's stripes: as the inventory, write-through to the referee before memory changes
        MapConfig admissions = new MapConfig(GridMaps.ADMISSIONS)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(settings.backupCount())
                .setReadBackupData(false)
                .setMergePolicyConfig(new MergePolicyConfig(DiscardMergePolicy.class.getName(), 100));
        if (stores.admissions() != null) {
            admissions.setMapStoreConfig(new MapStoreConfig()
                    .setEnabled(true)
                    .setImplementation(stores.admissions())
                    .setWriteDelaySeconds(0)
                    .setInitialLoadMode(MapStoreConfig.InitialLoadMode.LAZY));
        }
        config.addMapConfig(admissions);

        // no loader: Allowances reads an account the grid does not know on the request's thread (a
        // loader would also run for the backup's copy of each processor, on its partition thread)
        config.addMapConfig(new MapConfig(GridMaps.ALLOWANCES)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(settings.backupCount())
                .setMaxIdleSeconds(org.boxoffice.grid.Allowances.MAX_IDLE_SECONDS));
        config.addMapConfig(new MapConfig(GridMaps.ALLOWANCES_COMPLETE)
                .setBackupCount(settings.backupCount()));

        // what a standing area is known to have left (see SoldOutMarks): no backups, a message per
        // mark saved; a lost mark mostly means "nothing known" (the next claim counts again), and a
        // count begun before a give-back whose mark was lost with its member is believed at most
        // SoldOutMarks.TRUST_MILLIS, as for any loss; a mark of a sale long over goes by itself
        config.addMapConfig(new MapConfig(GridMaps.SOLD_OUT_MARKS)
                .setBackupCount(0)
                .setAsyncBackupCount(0)
                .setTimeToLiveSeconds(300));

        config.addMapConfig(new MapConfig(GridMaps.IDEMPOTENCY)
                .setBackupCount(settings.backupCount())
                .setTimeToLiveSeconds(24 * 3600));
        config.getMapConfig(GridMaps.IDEMPOTENCY).getEvictionConfig()
                .setEvictionPolicy(EvictionPolicy.LRU)
                .setMaxSizePolicy(MaxSizePolicy.PER_NODE)
                .setSize(2_000_000);

        // one mutable room per show, changed only by processors (no MapStore: see WaitingRoom); the
        // rooms' ledger in PostgreSQL is written and read by WaitingRooms itself
        config.addMapConfig(new MapConfig(org.boxoffice.grid.room.WaitingRooms.MAP)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(settings.backupCount())
                .setSplitBrainProtectionName(settings.quorum() > 1 ? GridMaps.QUORUM : null));

        // velocity limits: token buckets, one per limited key, without backups (a lost bucket is a
        // full one, forgiving at most a minute's count; a backup was a message to another member at
        // every take), and a bucket idle for longer than it takes to refill is dropped (see VelocityLimits)
        config.addMapConfig(new MapConfig(org.boxoffice.grid.limits.VelocityLimits.MAP)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setBackupCount(0)
                .setAsyncBackupCount(0)
                .setMaxIdleSeconds(org.boxoffice.grid.limits.VelocityLimits.IDLE_SECONDS));

        // challenges already used: a replay must be refused even after a member is lost, so one
        // backup (and, beyond the backups, SpentChallenges' ledger in PostgreSQL)
        config.addMapConfig(new MapConfig(org.boxoffice.grid.limits.SpentChallenges.MAP)
                .setBackupCount(settings.backupCount()));

        MapConfig events = new MapConfig(GridMaps.CATALOG_EVENTS).setBackupCount(settings.backupCount());
        events.setMapStoreConfig(new MapStoreConfig()
                .setEnabled(true)
                .setImplementation(stores.listings())
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.EAGER));
        config.addMapConfig(events);

        // one waitlist queue per show, on the show id's partition; its store writes an entry to
        // PostgreSQL before the queue holds it (see Waitlists)
        QueueConfig waitlistQueue = new QueueConfig(Waitlists.CONFIG_NAME)
                .setBackupCount(settings.backupCount())
                .setSplitBrainProtectionName(settings.quorum() > 1 ? GridMaps.QUORUM : null);
        if (stores.waitlists() != null) {
            waitlistQueue.setQueueStoreConfig(new QueueStoreConfig().setEnabled(true)
                    .setFactoryImplementation(stores.waitlists()));
        }
        config.addQueueConfig(waitlistQueue);
        config.addExecutorConfig(new ExecutorConfig(WaitlistOffers.EXECUTOR).setPoolSize(2));
        return config;
    }

    /** When a member that checks its referee becomes a data member (owns partitions). */
    public enum Promotion {
        /** As soon as its referee is found to be the cluster's. */
        AT_ONCE,
        /**
         * Once the caller says it is warm ({@link #promote}), if at least the quorum of other members
         * own the data: until then no partition migrates to a JVM that has not compiled the code
         * serving it. A member that finds fewer (a cluster's first member, a cluster below its quorum
         * after a loss) is promoted at once: it is needed to serve.
         */
        WHEN_WARM
    }

    public static HazelcastInstance start(GridSettings settings, Stores stores) {
        return start(settings, stores, null, Promotion.AT_ONCE);
    }

    /**
     * Starts a member whose referee is {@code referee} (an identity such as {@code <uuid> (database
     * ...)}; null: not checked). Such a member joins as a lite member, owning no partition, and
     * compares its referee with every other member's; it becomes a data member only if none
     * differs ({@code promotion} says when), and otherwise leaves and throws
     * {@link RefereeMismatchException} naming both.
     */
    public static HazelcastInstance start(GridSettings settings, Stores stores, String referee, Promotion promotion) {
        if (java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() < 2) {
            // Hazelcast (as CompletableFuture) then runs each asynchronous callback on a new thread
            java.util.logging.Logger.getLogger(GridMember.class.getName()).warning("the common fork-join pool has one"
                    + " thread: every callback on a peer's answer will start a thread of its own; start the JVM with"
                    + " -Djava.util.concurrent.ForkJoinPool.common.parallelism=2");
        }
        Config config = config(settings, stores);
        if (referee != null) {
            config.setLiteMember(true);
            config.getMemberAttributeConfig().setAttribute(REFEREE_ATTRIBUTE, referee);
        }
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(config);
        if (referee != null) {
            joinIfSameReferee(hz, settings, referee);
            if (promotion == Promotion.AT_ONCE || othersOwningData(hz) < settings.quorum()) {
                promote(hz);
            } else {
                promoteIfNeeded(hz, settings.quorum());
            }
        }
        storesOnOwnThreads(hz);
        // After a split-brain merge, this member's copy of the inventory may be from the side that
        // lost; drop it so every block reloads from the referee on its next use.
        CatalogRefill catalogRefill = new CatalogRefill(hz, settings.backupCount());
        hz.getPartitionService().addPartitionLostListener(catalogRefill);
        hz.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                hz.getMap(GridMaps.INVENTORY).evictAll();
                if (stores.admissions() != null) {
                    hz.getMap(GridMaps.ADMISSIONS).evictAll();
                }
            }
            if (event.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN) {
                catalogRefill.close();
            }
        });
        return hz;
    }
}
