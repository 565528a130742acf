package org.boxoffice.bench.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a Kubernetes Service does for the bench's crowd: one address on loopback, each new
 * connection sent to one of the members it lists, picked at random (kube-proxy's iptables mode),
 * bytes relayed as they are (layer 4). A member is listed once it is ready; a member taken out
 * gets no new connections, as an endpoint removed before its pod stops.
 *
 * <p>Real fans come and go, so their connections do too; the bench's few hundred keep-alive
 * connections would otherwise stay on the members they first reached, and a member added mid-sale
 * would never get any. So every connection ends after a random 0.5-1.5x {@code rotateAfter}
 * requests, and at once when its member is taken out: the proxy adds {@code Connection: close} to
 * that request (requests come one at a time per connection, so a read that follows an answer
 * starts a request) and to its answer, the member answers and closes, and the client's next
 * connection is spread afresh. No request is cut off by it.
 *
 * <p>One thread relays every connection through a {@link Selector}; its CPU time
 * ({@link #cpuNanos()}) is the proxy's whole cost, reported apart from the load generator's.
 */
public final class ServiceProxy implements AutoCloseable {

    /** A member's HTTP address. */
    public record Backend(String name, String host, int port) {
    }

    private static final int BUFFER = 64 * 1024;
    private static final byte[] CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private final ServerSocketChannel server;
    private final Selector selector;
    private final int rotateAfter;
    private final SplittableRandom random = new SplittableRandom(7);
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final List<Backend> listed = new ArrayList<>();
    /** The listed members' names as the proxy's own thread last changed them, for other threads to read. */
    private final java.util.Set<String> listedNames = ConcurrentHashMap.newKeySet();
    private final List<Pair> pairs = new ArrayList<>();
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> connections = new ConcurrentHashMap<>();
    private final LongAdder refused = new LongAdder();
    private volatile boolean running = true;

    public ServiceProxy(int rotateAfter) {
        this.rotateAfter = rotateAfter;
        try {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress("127.0.0.1", 0), 1024);
            server.configureBlocking(false);
            selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = new Thread(this::loop, "service-proxy");
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return server.socket().getLocalPort();
    }

    /** Lists a member (once; listing a listed member changes nothing): new connections may go to it from now on. */
    public void add(Backend backend) {
        requests.computeIfAbsent(backend.name(), k -> new LongAdder());
        connections.computeIfAbsent(backend.name(), k -> new LongAdder());
        command(() -> {
            listed.removeIf(b -> b.name().equals(backend.name()));
            listed.add(backend);
            listedNames.add(backend.name());
        });
    }

    /** Whether new connections may go to this member now (the proxy's thread has applied its listing). */
    public boolean lists(String name) {
        return listedNames.contains(name);
    }

    /**
     * Follows a member's readiness as kube-proxy follows a Service's endpoints: listed while ready,
     * taken out (its connections end after their next request) while not.
     */
    public void follow(Backend backend, boolean ready) {
        if (ready) {
            add(backend);
        } else {
            remove(backend.name());
        }
    }

    /** Takes a member out: no new connections, and each of its connections ends after its next request. */
    public void remove(String name) {
        command(() -> {
            listed.removeIf(b -> b.name().equals(name));
            listedNames.remove(name);
            for (Pair p : pairs) {
                if (p.backend.name().equals(name)) {
                    p.closeAfter = 0;
                }
            }
        });
    }

    /** Requests relayed so far, per member. */
    public Map<String, Long> requests() {
        return counts(requests);
    }

    /** Connections opened so far, per member. */
    public Map<String, Long> connections() {
        return counts(connections);
    }

    /** Connections closed at once because no member was listed or the chosen one refused. */
    public long refused() {
        return refused.sum();
    }

    /** CPU time of the proxy's thread so far. */
    public long cpuNanos() {
        long nanos = ManagementFactory.getThreadMXBean().getThreadCpuTime(thread.threadId());
        return Math.max(0, nanos);
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(5_000);
            server.close();
            selector.close();
        } catch (IOException e) {
            // closing anyway
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, Long> counts(Map<String, LongAdder> adders) {
        Map<String, Long> out = new TreeMap<>();
        adders.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    private void command(Runnable r) {
        commands.add(r);
        selector.wakeup();
    }

    private void loop() {
        try {
            while (running) {
                selector.select(100);
                for (Runnable r; (r = commands.poll()) != null; ) {
                    r.run();
                }
                for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey key = it.next();
                    it.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                    } else {
                        Pair p = (Pair) key.attachment();
                        try {
                            p.ready(key);
                        } catch (IOException | RuntimeException e) {
                            p.close();
                        }
                    }
                }
            }
        } catch (IOException e) {
            System.err.println("bench: service proxy stopped: " + e);
        } finally {
            for (Pair p : List.copyOf(pairs)) {
                p.close();
            }
        }
    }

    private void accept() throws IOException {
        for (SocketChannel client; (client = server.accept()) != null; ) {
            if (listed.isEmpty()) {
                refused.increment();
                client.close();
                continue;
            }
            Backend backend = listed.get(random.nextInt(listed.size()));
            SocketChannel member;
            try {
                member = SocketChannel.open(new InetSocketAddress(backend.host(), backend.port()));
            } catch (IOException e) {
                refused.increment();
                client.close();
                continue;
            }
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            member.setOption(StandardSocketOptions.TCP_NODELAY, true);
            client.configureBlocking(false);
            member.configureBlocking(false);
            Pair p = new Pair(client, member, backend, rotateAfter / 2 + random.nextInt(Math.max(1, rotateAfter)));
            p.clientKey = client.register(selector, SelectionKey.OP_READ, p);
            p.memberKey = member.register(selector, SelectionKey.OP_READ, p);
            pairs.add(p);
            connections.get(backend.name()).increment();
        }
    }

    /** One client connection and the member connection it was given. */
    private final class Pair {
        final SocketChannel client;
        final SocketChannel member;
        final Backend backend;
        final LongAdder served;
        SelectionKey clientKey;
        SelectionKey memberKey;
        /** client to member, kept in write mode: position = bytes waiting */
        final ByteBuffer up = ByteBuffer.allocate(BUFFER);
        final ByteBuffer down = ByteBuffer.allocate(BUFFER);
        boolean requestStarts = true;
        /** The request that ends this connection was sent: its answer says so too. */
        boolean closing;
        int closeAfter;
        boolean memberClosed;
        boolean closed;

        Pair(SocketChannel client, SocketChannel member, Backend backend, int closeAfter) {
            this.client = client;
            this.member = member;
            this.backend = backend;
            this.closeAfter = closeAfter;
            this.served = requests.get(backend.name());
        }

        void ready(SelectionKey key) throws IOException {
            boolean fromClient = key == clientKey;
            if (key.isReadable()) {
                if (fromClient) {
                    readClient();
                } else {
                    readMember();
                }
            }
            if (closed) {
                return;
            }
            if (key.isValid() && key.isWritable()) {
                if (fromClient) {
                    flush(down, client);
                } else {
                    flush(up, member);
                }
            }
            if (memberClosed && down.position() == 0) {
                close();
                return;
            }
            interest();
        }

        private void readClient() throws IOException {
            int n = client.read(up);
            if (n < 0) {
                close();
                return;
            }
            if (n > 0 && requestStarts) {
                requestStarts = false;
                served.increment();
                if (--closeAfter <= 0) {
                    closing = insertClose(up);
                }
            }
            flush(up, member);
        }

        private void readMember() throws IOException {
            int n = member.read(down);
            if (n < 0) {
                memberClosed = true;
            } else if (n > 0 && !requestStarts) {
                // an answer began: the client sends its next request only once it has it all. The
                // member closes after it; a client that did not hear so would send its next
                // request into the closing connection
                requestStarts = true;
                if (closing) {
                    insertClose(down);
                }
            }
            flush(down, client);
        }

        /** Adds Connection: close after the first line (the buffer holds a request's or an answer's start at 0). */
        private boolean insertClose(ByteBuffer buffer) {
            byte[] b = buffer.array();
            int end = buffer.position();
            for (int i = 0; i + 1 < end; i++) {
                if (b[i] == '\r' && b[i + 1] == '\n') {
                    if (end + CLOSE.length > b.length) {
                        return false;
                    }
                    System.arraycopy(b, i + 2, b, i + 2 + CLOSE.length, end - i - 2);
                    System.arraycopy(CLOSE, 0, b, i + 2, CLOSE.length);
                    buffer.position(end + CLOSE.length);
                    return true;
                }
            }
            return false;
        }

        private void flush(ByteBuffer buffer, SocketChannel to) throws IOException {
            if (buffer.position() == 0) {
                return;
            }
            buffer.flip();
            to.write(buffer);
            buffer.compact();
        }

        /** Read a side only when what it sent last has been passed on; write a side while bytes wait for it. */
        private void interest() {
            clientKey.interestOps((up.position() == 0 ? SelectionKey.OP_READ : 0)
                    | (down.position() > 0 ? SelectionKey.OP_WRITE : 0));
            memberKey.interestOps((down.position() == 0 && !memberClosed ? SelectionKey.OP_READ : 0)
                    | (up.position() > 0 ? SelectionKey.OP_WRITE : 0));
        }

        void close() {
            if (closed) {
                return;
            }
            closed = true;
            pairs.remove(this);
            for (SocketChannel ch : new SocketChannel[]{client, member}) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }
}
