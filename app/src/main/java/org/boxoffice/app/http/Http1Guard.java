package org.boxoffice.app.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.common.task.InterruptableTask;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Helidon's HTTP/1.1 connections, held to HTTP/1.1 where Helidon 4.5 is more lenient.
 *
 * <ul>
 *   <li>The listener's idle timeout applies to every read the server waits on, not only to the
 *   request line. Helidon 4.5 closes an idle connection only while it waits for a request line
 *   ({@code Http1Connection.canInterrupt}): a client that stops in the middle of its headers, or
 *   sends fewer body bytes than it announced, would hold the connection and its thread for ever.
 *   Here a connection reports as idle for as long as the server has waited for the client's next
 *   byte, wherever in the request that is, and nothing else: a request being answered (a long
 *   poll, a seat-map stream) is never idle. Helidon's own timer
 *   ({@code server.idle-connection-timeout}, checked every {@code idle-connection-period}) then
 *   closes it, interrupting the blocked read.</li>
 *   <li>A request with {@code Connection: close} is the connection's last (RFC 9112 section 9.6):
 *   Helidon 4.5 answers it with {@code Connection: close} and then reads the next request.</li>
 *   <li>A method with a lower-case letter ({@code get}) is refused with 400: methods are
 *   case-sensitive (RFC 9110 section 9.1) and Helidon 4.5 upper-cases them while it reads the
 *   request line, so it would serve {@code get} as {@code GET}.</li>
 *   <li>A header line without a name ({@code : x}) is refused with 400 (RFC 9112 section 5: a
 *   field name is a token); Helidon 4.5 keeps it as a header named "".</li>
 * </ul>
 *
 * <p>A refusal is Helidon's own answer to a request it cannot read: the listener's direct handler
 * for {@code BAD_REQUEST} writes it, and the connection is closed; nothing is routed.
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
     * The checks of each request's headers are the HTTP/1.1 settings' one receive listener:
     * Helidon calls a lone listener itself, while its composite of several passes nothing on, so
     * listeners already there (Helidon's {@code receive-log}) are not kept.
     */
    public static void install(WebServerConfig.Builder server) {
        Http1Config configured = server.protocols().stream()
                .filter(Http1Config.class::isInstance)
                .map(Http1Config.class::cast)
                .findFirst()
                .orElseGet(Http1Config::create);
        Http1Config http1 = Http1Config.builder()
                .from(configured)
                .receiveListeners(List.of(RequestHeaders.INSTANCE))
                .build();
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

    /** A 400 that Helidon answers with the listener's direct handler, closing the connection. */
    private static RequestException badRequest(String message) {
        return RequestException.builder()
                .type(DirectHandler.EventType.BAD_REQUEST)
                .status(Status.BAD_REQUEST_400)
                .message(message)
                .build();
    }

    /**
     * The checks of a request's headers, once Helidon has read them and before anything is routed
     * or answered (a {@code 100 Continue} included). Runs on the connection's thread.
     */
    private static final class RequestHeaders implements Http1ConnectionListener {

        static final RequestHeaders INSTANCE = new RequestHeaders();
        /** The name Helidon 4.5 gives the header of a line that starts with its colon. */
        private static final HeaderName NO_NAME = HeaderNames.create("");

        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            if (headers.contains(NO_NAME)) {
                throw badRequest("a header line without a field name");
            }
            // the test Helidon uses to answer Connection: close, so the two always agree
            if (headers.containsToken(HeaderValues.CONNECTION_CLOSE) && ctx instanceof Guarded guarded) {
                guarded.endAfterThisRequest();
            }
        }
    }

    /**
     * One connection: Helidon's, reading through a reader that notes since when it waits for the
     * client and checks each request line. Runs on the connection's thread; {@link #idleTime} and
     * {@link #close} are called from Helidon's idle timer.
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
            this.reader = new RequestLineReader(() -> {
                waitingSince = Math.max(1, System.nanoTime());
                try {
                    socket.ensureAvailable();
                    return socket.readBytes(socket.available());
                } finally {
                    waitingSince = 0;
                }
            });
        }

        /**
         * Helidon's connection finishes the request it is in (its answer says
         * {@code Connection: close}, its body is read or left) and then ends, closing the socket,
         * instead of reading another request. Not an interrupt: nothing in flight is cut short.
         */
        void endAfterThisRequest() {
            connection.close(false);
        }

        /**
         * The client's bytes, as Helidon's connection reads them. Helidon 4.5 reads a request line
         * whole with {@link #readBytes}, and only while it reads one may its connection be
         * interrupted ({@code Http1Connection.canInterrupt}): there the method, the bytes before
         * the first space, is checked before Helidon upper-cases it. Helidon's raw request line
         * is reachable nowhere else; the constructor this needs is deprecated for removal, so a
         * Helidon without it fails the build here rather than let {@code get} through unnoticed.
         */
        private final class RequestLineReader extends DataReader {

            @SuppressWarnings("removal")
            RequestLineReader(Supplier<byte[]> bytes) {
                super(bytes);
            }

            @Override
            public byte[] readBytes(int length) {
                byte[] bytes = super.readBytes(length);
                if (connection instanceof InterruptableTask<?> task && task.canInterrupt()) {
                    for (byte b : bytes) {
                        if (b == ' ') {
                            break;
                        }
                        if (b >= 'a' && b <= 'z') {
                            throw badRequest("a method with a lower-case letter: methods are case-sensitive");
                        }
                    }
                }
                return bytes;
            }
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
