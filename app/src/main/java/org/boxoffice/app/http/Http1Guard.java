package org.boxoffice.app.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;

/**
 * Helidon's HTTP/1.1 connections, with the listener's idle timeout applied to every read the server
 * waits on, not only to the request line. Helidon 4.5 closes an idle connection only while it
 * waits for a request line ({@code Http1Connection.canInterrupt}): a client that stops in the
 * middle of its headers, or sends fewer body bytes than it announced, would hold the connection
 * and its thread for ever. Here a connection reports as idle for as long as the server has waited
 * for the client's next byte, wherever in the request that is, and nothing else: a request being
 * answered (a long poll, a seat-map stream) is never idle. Helidon's own timer
 * ({@code server.idle-connection-timeout}, checked every {@code idle-connection-period}) then
 * closes it, interrupting the blocked read.
 *
 * <p>Install with {@link #install}: it should be the listener's only connection selector, so
 * Helidon hands it each connection before reading a byte (with two, Helidon reads the first bytes
 * itself to choose one, and a client that sends nothing would not be closed).
 */
public final class Http1Guard implements ServerConnectionSelector {

    private final Http1ConnectionSelector http1;

    private Http1Guard(Http1Config config) {
        this.http1 = Http1ConnectionSelector.builder().config(config).build();
    }

    /**
     * Makes this the listener's only connection selector, with the HTTP/1.1 settings already given
     * to {@code server} (Helidon's defaults otherwise). A {@code protocols} node in the server's
     * configuration would add Helidon's plain selector back beside it: the service configures none.
     */
    public static void install(WebServerConfig.Builder server) {
        Http1Config http1 = server.protocols().stream()
                .filter(Http1Config.class::isInstance)
                .map(Http1Config.class::cast)
                .findFirst()
                .orElseGet(Http1Config::create);
        server.protocolsDiscoverServices(false)
                .clearProtocols()
                .clearConnectionSelectors()
                .addConnectionSelector(new Http1Guard(http1));
    }

    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    /**
     * Every connection is this selector's: the service speaks HTTP/1.1 only, and Helidon's
     * connection answers what is not (505 to HTTP/1.0, 414 to an overlong request line, 400 to the
     * rest). Should Helidon's plain selector stand beside this one (a {@code protocols} node in the
     * configuration), this one, listed first, still takes each connection.
     */
    @Override
    public Support supports(BufferData request) {
        return Support.SUPPORTED;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        Guarded guarded = new Guarded(ctx);
        guarded.connection = http1.connection(guarded);
        return guarded;
    }

    /**
     * One connection: Helidon's, reading through a reader that notes since when it waits for the
     * client. Runs on the connection's thread; {@link #idleTime} and {@link #close} are called from
     * Helidon's idle timer.
     */
    private static final class Guarded implements ConnectionContext, ServerConnection {

        private final ConnectionContext ctx;
        private final DataReader reader;
        /** {@link System#nanoTime} when the current wait for the client's bytes began; 0 when not waiting. */
        private volatile long waitingSince;
        private ServerConnection connection;

        Guarded(ConnectionContext ctx) {
            this.ctx = ctx;
            DataReader socket = ctx.dataReader();
            this.reader = DataReader.create(() -> {
                waitingSince = Math.max(1, System.nanoTime());
                try {
                    socket.ensureAvailable();
                    return socket.readBytes(socket.available());
                } finally {
                    waitingSince = 0;
                }
            });
        }

        @Override
        public void handle(Limit limit) throws InterruptedException {
            connection.handle(limit);
        }

        @Override
        public void handle(Semaphore requestSemaphore) throws InterruptedException {
            connection.handle(requestSemaphore);
        }

        @Override
        public Duration idleTime() {
            long since = waitingSince;
            return since == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - since);
        }

        @Override
        public void close(boolean interrupt) {
            // a read that waits for the client is interrupted (which closes the socket) wherever it is
            connection.close(interrupt || waitingSince != 0);
        }

        @Override
        public DataReader dataReader() {
            return reader;
        }

        @Override
        public ListenerContext listenerContext() {
            return ctx.listenerContext();
        }

        @Override
        public ExecutorService executor() {
            return ctx.executor();
        }

        @Override
        public DataWriter dataWriter() {
            return ctx.dataWriter();
        }

        @Override
        public Router router() {
            return ctx.router();
        }

        @Override
        public Optional<ProxyProtocolData> proxyProtocolData() {
            return ctx.proxyProtocolData();
        }

        @Override
        public HelidonSocket serverSocket() {
            return ctx.serverSocket();
        }

        @Override
        public PeerInfo remotePeer() {
            return ctx.remotePeer();
        }

        @Override
        public PeerInfo localPeer() {
            return ctx.localPeer();
        }

        @Override
        public boolean isSecure() {
            return ctx.isSecure();
        }

        @Override
        public String socketId() {
            return ctx.socketId();
        }

        @Override
        public String childSocketId() {
            return ctx.childSocketId();
        }
    }
}
