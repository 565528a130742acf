package org.boxoffice.app.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The grid's own network, on loopback, that a test can cut in two: real TCP between member JVMs,
 * with a small proxy in the path of every member-to-member connection.
 *
 * <p>Member {@code i} (0-based) lives at two loopback addresses (Linux routes all of 127/8 to
 * {@code lo}): its grid socket listens on {@code 127.0.1.(i+2)}, and its address on the network,
 * the one it advertises ({@code boxoffice.grid.public}) and the other members dial, is
 * {@code 127.0.0.(i+2)}, same port, where this proxy listens. With
 * {@code hazelcast.socket.client.bind.any=false} Hazelcast binds every connection a member opens to
 * its public address, so the proxy knows which member a connection comes from by its source
 * address; it opens its own connection to the target from that same source address, so the target
 * sees the true peer too.
 *
 * <p>{@link #cut} behaves like a link that fails between the two sides: the connections already
 * open across it go silent in both directions (what is sent is swallowed, a close is not passed
 * on), so members find out only by missing heartbeats; a connection opened across it is refused at
 * once (reset), as when a router answers "unreachable". (A user-space proxy cannot drop a SYN: the
 * kernel completes the handshake before {@code accept}. Holding such connections open and silent
 * instead is not what a failed link does, and it makes a Hazelcast 5.7 member's outbound I/O thread
 * spin on the connection, starving the member's other connections on that thread, so the two
 * members on the same side stop hearing each other.) After a real partition the silenced connections are dead;
 * {@link #heal} resets them (RST) and lets every new connection through. PostgreSQL and HTTP do not
 * go through this network: both sides keep reaching the referee, as the design assumes.
 */
final class GridNetwork implements AutoCloseable {

    private final FaultRig rig;
    private final List<Integer> ports;
    private final List<ServerSocket> listeners = new ArrayList<>();
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final Set<Flow> flows = ConcurrentHashMap.newKeySet();
    private final AtomicInteger strangers = new AtomicInteger();
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger refusedAcross = new AtomicInteger();
    private final AtomicLong swallowed = new AtomicLong();
    /** The longest one write to a member took on a link that was not cut (a member not reading). */
    private final AtomicLong slowestWriteMillis = new AtomicLong();
    /** Side of each member while cut (same number: same side); null when the network is whole. */
    private volatile int[] sides;
    private volatile boolean closed;

    /** Starts a proxy for each member's grid port ({@code rig.gridPorts}). */
    GridNetwork(FaultRig rig) {
        this.rig = rig;
        this.ports = List.copyOf(rig.gridPorts);
        for (int i = 0; i < ports.size(); i++) {
            int target = i;
            try {
                ServerSocket listener = new ServerSocket();
                listener.bind(new InetSocketAddress(publicHost(i), ports.get(i)), 64);
                listeners.add(listener);
                Thread.ofPlatform().daemon().name("grid-net-accept-m" + (i + 1)).start(() -> accept(listener, target));
            } catch (IOException e) {
                close();
                throw new UncheckedIOException("could not listen on " + publicHost(i) + ":" + ports.get(i), e);
            }
        }
        List<String> behind = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            behind.add(memberHost(i) + ":" + ports.get(i));
        }
        Thread.ofPlatform().daemon().name("grid-net-watch").start(this::watch);
        rig.log("grid network: members at " + addresses() + " (their proxies), their own sockets behind at " + behind);
    }

    /** Where member {@code index} is on the network: the proxy, and the source of its connections. */
    static String publicHost(int index) {
        return "127.0.0." + (index + 2);
    }

    /** Where member {@code index}'s own grid socket listens, behind its proxy. */
    static String memberHost(int index) {
        return "127.0.1." + (index + 2);
    }

    /** The TCP-IP member list every member gets: the proxies. */
    List<String> addresses() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            out.add(publicHost(i) + ":" + ports.get(i));
        }
        return out;
    }

    /**
     * A {@link FaultRig.MemberSetup} that puts a member on this network: bound behind its proxy,
     * advertising the proxy, dialling out from its own address, and declaring a silent peer dead
     * after {@code noHeartbeatSeconds} (Hazelcast's default is 60 s).
     */
    FaultRig.MemberSetup setup(int noHeartbeatSeconds) {
        return (index, env, jvm) -> {
            env.put("BOXOFFICE_GRID_BIND", memberHost(index));
            env.put("BOXOFFICE_GRID_PUBLIC", publicHost(index) + ":" + ports.get(index));
            env.put("BOXOFFICE_GRID_MEMBERS", String.join(",", addresses()));
            // Hazelcast matches an interface address against the machine's interfaces, and lo lists
            // 127.0.0.1 only; this property makes it bind to the given address as it is
            jvm.add("-Dhazelcast.local.localAddress=" + memberHost(index));
            // outgoing member connections bound to this member's public address, not the wildcard
            jvm.add("-Dhazelcast.socket.client.bind.any=false");
            jvm.add("-Dhazelcast.heartbeat.interval.seconds=1");
            jvm.add("-Dhazelcast.max.no.heartbeat.seconds=" + noHeartbeatSeconds);
        };
    }

    /**
     * Cuts the network between the members of {@code one} and everyone else (0-based indexes):
     * links already open across go silent, new ones are refused.
     */
    void cut(Set<Integer> one) {
        int[] s = new int[ports.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = one.contains(i) ? 1 : 0;
        }
        sides = s;
        int silenced = 0;
        for (Link link : links) {
            if (across(link.from, link.to)) {
                link.silence();
                silenced++;
            }
        }
        rig.log("grid network CUT between " + names(one, true) + " and " + names(one, false) + ": " + silenced
                + " open connections silenced, " + (links.size() - silenced) + " untouched");
    }

    /** Lets traffic across again: the silenced connections are reset, new connections pass. */
    void heal() {
        sides = null;
        int reset = 0;
        for (Link link : links) {
            if (link.silent) {
                link.reset();
                reset++;
            }
        }
        rig.log("grid network HEALED: " + reset + " dead connections reset; while cut " + refusedAcross.get()
                + " connections across it were refused, " + swallowed.get() + " bytes swallowed; slowest write into a "
                + "member on a live link so far " + slowestWriteMillis.get() + " ms");
    }

    /** Connections that came from an address that is no member's: the cut could not have placed them. */
    int strangers() {
        return strangers.get();
    }

    /** The longest a write into a member took on a live link, in ms: a member that stopped reading. */
    long slowestWriteMillis() {
        return slowestWriteMillis.get();
    }

    /** Member connections the proxies carried. */
    int opened() {
        return opened.get();
    }

    private boolean across(int from, int to) {
        int[] s = sides;
        return s != null && s[from] != s[to];
    }

    private String names(Set<Integer> one, boolean in) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            if (one.contains(i) == in) {
                out.add("m" + (i + 1));
            }
        }
        return out.toString();
    }

    private void accept(ServerSocket listener, int to) {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    rig.log("grid network: proxy of m" + (to + 1) + " stopped accepting: " + e);
                }
                return;
            }
            Thread.ofPlatform().daemon().name("grid-net-open-m" + (to + 1)).start(() -> open(client, to));
        }
    }

    private void open(Socket client, int to) {
        InetAddress source = client.getInetAddress();
        int from = -1;
        for (int i = 0; i < ports.size(); i++) {
            if (source.getHostAddress().equals(publicHost(i))) {
                from = i;
            }
        }
        if (from < 0) {
            // not bound to a member's address (hazelcast.socket.client.bind.any not honoured?):
            // refused, and the test fails on it, as such a connection could cross any cut
            strangers.incrementAndGet();
            rig.log("grid network: refused a connection to m" + (to + 1) + " from " + client.getRemoteSocketAddress()
                    + ", which is no member's address");
            closeQuietly(client);
            return;
        }
        if (across(from, to)) {
            refusedAcross.incrementAndGet();
            abort(client);
            return;
        }
        opened.incrementAndGet();
        Link link = new Link(from, to, client);
        links.add(link);
        try {
            Socket upstream = new Socket();
            upstream.setTcpNoDelay(true);
            upstream.bind(new InetSocketAddress(source, 0));
            upstream.connect(new InetSocketAddress(memberHost(to), ports.get(to)), 5_000);
            link.upstream = upstream;
        } catch (IOException e) {
            // the member is not listening (not started yet, or gone): the dialler sees its connection close
            link.reset();
            return;
        }
        if (link.silent) { // cut while connecting
            link.pump(link.client, null);
            link.pump(link.upstream, null);
            return;
        }
        link.pump(link.client, link.upstream);
        link.pump(link.upstream, link.client);
    }

    /** One direction of a link, watched for stalls (see {@link #watch}). */
    private static final class Flow {
        final Link link;
        final String name;
        final long since = System.nanoTime();
        volatile long lastRead = System.nanoTime();
        volatile long writingSince;
        volatile long bytes;
        boolean stalled;

        Flow(Link link, String name) {
            this.link = link;
            this.name = name;
        }
    }

    /**
     * Logs a live flow (not across a cut) that stalls: a write into a member blocked for more than
     * 2 s (the member does not read), or nothing read for more than 3 s from a member on a flow in
     * use (64 KB carried; members send heartbeats every second, while a spare second connection
     * between two members may idle). Only changes are logged: a stall says which side stopped.
     */
    private void watch() {
        while (!closed) {
            long now = System.nanoTime();
            for (Flow f : flows) {
                if (f.link.silent) {
                    continue;
                }
                long writing = f.writingSince;
                long blockedMillis = writing == 0 ? 0 : (now - writing) / 1_000_000;
                long quietMillis = (now - f.lastRead) / 1_000_000;
                boolean stalled = blockedMillis > 2_000 || quietMillis > 3_000 && f.bytes > 64 * 1024;
                if (stalled != f.stalled) {
                    f.stalled = stalled;
                    rig.log("grid network: " + f.name + " (link opened " + (now - f.since) / 1_000_000_000 + " s ago, "
                            + f.bytes + " bytes so far) " + (stalled ? "STALLS: " + (blockedMillis > 2_000
                            ? "a write into the member has been blocked for " + blockedMillis + " ms"
                            : "nothing read from the sending member for " + quietMillis + " ms") : "flows again"));
                }
            }
            FaultRig.sleep(500);
        }
    }

    /** One member-to-member connection through the proxy: dialler to proxy, proxy to target. */
    private final class Link {
        final int from;
        final int to;
        final Socket client;
        volatile Socket upstream;
        volatile boolean silent;

        Link(int from, int to, Socket client) {
            this.from = from;
            this.to = to;
            this.client = client;
            try {
                client.setTcpNoDelay(true);
            } catch (SocketException ignored) {
                // only latency
            }
        }

        void silence() {
            silent = true;
        }

        /**
         * Copies {@code in} to {@code out} until either ends; while silent, reads and drops. On a
         * platform thread: virtual threads are not time-sliced, and the test's own (buyers, pollers)
         * must never hold up the members' heartbeats.
         */
        void pump(Socket in, Socket out) {
            boolean towardsTarget = in == client;
            Flow flow = new Flow(this, "m" + ((towardsTarget ? from : to) + 1) + "->m" + ((towardsTarget ? to : from) + 1));
            flows.add(flow);
            Thread.ofPlatform().daemon().name("grid-net-" + flow.name).start(() -> {
                byte[] buffer = new byte[32 * 1024];
                try {
                    InputStream input = in.getInputStream();
                    OutputStream output = out == null ? null : out.getOutputStream();
                    int n;
                    while ((n = input.read(buffer)) >= 0) {
                        flow.lastRead = System.nanoTime();
                        if (silent || output == null) {
                            swallowed.addAndGet(n);
                            continue;
                        }
                        long t = System.nanoTime();
                        flow.writingSince = t;
                        output.write(buffer, 0, n);
                        flow.writingSince = 0;
                        flow.bytes += n;
                        slowestWriteMillis.accumulateAndGet((System.nanoTime() - t) / 1_000_000, Math::max);
                    }
                } catch (IOException e) {
                    // closed by the other pump, by a reset, or by the peer
                }
                flows.remove(flow);
                if (!silent) {
                    // a close passes through a whole network
                    closeQuietly(client);
                    Socket u = upstream;
                    if (u != null) {
                        closeQuietly(u);
                    }
                    links.remove(this);
                }
                // a silent link's close goes nowhere: the other end finds out at the heal
            });
        }

        /** Resets both connections (RST), as a peer does for a connection it no longer knows. */
        void reset() {
            links.remove(this);
            abort(client);
            Socket u = upstream;
            if (u != null) {
                abort(u);
            }
        }
    }

    private static void abort(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (SocketException ignored) {
            // already closed
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        closed = true;
        for (ServerSocket l : listeners) {
            try {
                l.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
        for (Link link : links) {
            link.reset();
        }
    }
}
