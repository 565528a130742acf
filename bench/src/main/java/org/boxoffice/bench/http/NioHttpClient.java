package org.boxoffice.bench.http;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Many keep-alive HTTP/1.1 connections to one server, driven by the one thread that calls
 * {@link #poll} through a {@link Selector}: one request in flight per connection, no pipelining,
 * no thread per connection. Not thread-safe: the open-loop load generator owns it.
 *
 * <p>Why: a blocking client needs a thread per connection, and on a 2-core machine that also runs
 * the server and PostgreSQL the generator's wake-ups and context switches cost more CPU than the
 * requests themselves (80-100 µs per request). Here one thread reads every answer that arrived in
 * one {@code select}, so a busy second costs a few system calls per request and no hand-offs.
 *
 * <p>Speaks what the Boxoffice API and the baseline server need: Content-Length and chunked bodies,
 * ETag, {@code Connection: close}. A connection the server closes is reopened for the next request;
 * the request that was on it fails (a POST may have been applied, so it is never resent).
 */
public final class NioHttpClient implements AutoCloseable {

    /** What the owner hears about each request it sent. Called on the polling thread. */
    public interface Listener {
        void completed(Object tag, HttpResponse response, long completedNanos);

        void failed(Object tag, IOException error, long failedNanos);
    }

    private static final int BUFFER = 64 * 1024;

    private final InetSocketAddress address;
    private final Selector selector;
    private final Listener listener;
    private final List<Conn> all = new ArrayList<>();
    private final ArrayDeque<Conn> idle = new ArrayDeque<>();
    private final String hostHeader;
    private long reconnects;

    public NioHttpClient(String host, int port, int connections, Listener listener) throws IOException {
        this.address = new InetSocketAddress(host, port);
        this.hostHeader = host + ":" + port;
        this.selector = Selector.open();
        this.listener = listener;
        for (int i = 0; i < connections; i++) {
            Conn c = new Conn();
            c.open();
            all.add(c);
            idle.add(c);
        }
    }

    /** Whether a connection is free for a request now. */
    public boolean hasIdle() {
        return !idle.isEmpty();
    }

    public int inFlight() {
        return all.size() - idle.size();
    }

    /** Connections reopened after the server closed them or a request failed on them. */
    public long reconnects() {
        return reconnects;
    }

    /**
     * The bytes of one request (HTTP/1.1, keep-alive). Headers are ASCII.
     *
     * @param extraHeader a complete header line without CRLF, or null
     */
    public byte[] request(String method, String path, String bearer, String ifNoneMatch, String extraHeader, String jsonBody) {
        return request(prefix(method, path, bearer), ifNoneMatch, extraHeader, jsonBody);
    }

    /**
     * The request line, Host and Authorization of a request, encoded once: a fan sends the same ones
     * with every attempt, and copying bytes costs less than encoding a 300-character token again.
     */
    public byte[] prefix(String method, String path, String bearer) {
        StringBuilder head = new StringBuilder(64 + path.length() + (bearer == null ? 0 : bearer.length()));
        head.append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(hostHeader).append("\r\n");
        if (bearer != null) {
            head.append("Authorization: Bearer ").append(bearer).append("\r\n");
        }
        return head.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A request from its {@link #prefix} and the rest. */
    public byte[] request(byte[] prefix, String ifNoneMatch, String extraHeader, String jsonBody) {
        byte[] body = jsonBody == null ? null : jsonBody.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(80 + (extraHeader == null ? 0 : extraHeader.length()));
        HttpConnection.endHead(head, ifNoneMatch, extraHeader, body);
        int headLength = head.length();
        byte[] out = new byte[prefix.length + headLength + (body == null ? 0 : body.length)];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        for (int i = 0; i < headLength; i++) {
            out[prefix.length + i] = (byte) head.charAt(i);
        }
        if (body != null) {
            System.arraycopy(body, 0, out, prefix.length + headLength, body.length);
        }
        return out;
    }

    /**
     * Sends a request on an idle connection; the {@link Listener} hears of it later. Call only when
     * {@link #hasIdle()}.
     *
     * @param head whether the request is a HEAD (its answer has no body)
     */
    public void send(byte[] request, Object tag, boolean head) {
        Conn c = idle.poll();
        if (c == null) {
            throw new IllegalStateException("no idle connection");
        }
        c.start(request, tag, head);
    }

    /** Waits at most {@code timeoutNanos} for answers and hands every complete one to the listener. */
    public void poll(long timeoutNanos) throws IOException {
        int ready;
        if (timeoutNanos <= 0) {
            ready = selector.selectNow();
        } else {
            // select's resolution is a millisecond; a sub-millisecond wait rounds up, and the late
            // send it may cause counts in the latency, which runs from the intended send time
            ready = selector.select(Math.max(1, (timeoutNanos + 999_999) / 1_000_000));
        }
        if (ready == 0) {
            return;
        }
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            Conn c = (Conn) key.attachment();
            if (!key.isValid()) {
                continue;
            }
            try {
                if (key.isWritable()) {
                    c.flush();
                }
                if (key.isValid() && key.isReadable()) {
                    c.read();
                }
            } catch (IOException e) {
                c.fail(e);
            }
        }
    }

    @Override
    public void close() {
        for (Conn c : all) {
            c.closeChannel();
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** One connection: at most one request in flight. */
    private final class Conn {
        private SocketChannel channel;
        private SelectionKey key;
        private ByteBuffer out;
        private ByteBuffer in = ByteBuffer.allocate(BUFFER);
        private Object tag;
        private boolean headRequest;

        void open() throws IOException {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.connect(address);
                ch.configureBlocking(false);
                key = ch.register(selector, SelectionKey.OP_READ, this);
            } catch (IOException e) {
                ch.close();
                throw e;
            }
            channel = ch;
            in.clear();
        }

        void start(byte[] request, Object tag, boolean head) {
            this.tag = tag;
            this.headRequest = head;
            try {
                if (channel == null) {
                    reconnects++;
                    open();
                }
                out = ByteBuffer.wrap(request);
                flush();
            } catch (IOException e) {
                fail(e);
            }
        }

        void flush() throws IOException {
            if (out == null) {
                return;
            }
            channel.write(out);
            if (out.hasRemaining()) {
                key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            } else {
                out = null;
                key.interestOps(SelectionKey.OP_READ);
            }
        }

        void read() throws IOException {
            if (!in.hasRemaining()) {
                ByteBuffer bigger = ByteBuffer.allocate(in.capacity() * 2);
                in.flip();
                bigger.put(in);
                in = bigger;
            }
            int n = channel.read(in);
            if (n < 0) {
                throw new EOFException("connection closed by server");
            }
            if (tag == null) {
                // nothing asked: a stray byte or the server's goodbye; drop it
                in.clear();
                return;
            }
            Parsed p = parse(in.array(), in.position(), headRequest);
            if (p == null) {
                return;
            }
            Object done = tag;
            tag = null;
            in.clear();
            if (p.close) {
                closeChannel();
            }
            idle.add(this);
            listener.completed(done, new HttpResponse(p.status, p.body, p.etag), System.nanoTime());
        }

        void fail(IOException e) {
            Object done = tag;
            tag = null;
            closeChannel();
            idle.add(this);
            if (done != null) {
                listener.failed(done, e, System.nanoTime());
            }
        }

        void closeChannel() {
            if (channel != null) {
                key.cancel();
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
                channel = null;
                key = null;
            }
            out = null;
            in.clear();
        }
    }

    /** A complete response. */
    record Parsed(int status, byte[] body, String etag, boolean close) {
    }

    /**
     * Parses a complete response from {@code buf[0, length)}, or returns null when more bytes are
     * needed. Package-private for tests.
     */
    static Parsed parse(byte[] buf, int length, boolean head) throws IOException {
        int headerEnd = indexOf(buf, 0, length);
        if (headerEnd < 0) {
            if (length > 256 * 1024) {
                throw new IOException("response headers too long");
            }
            return null;
        }
        // status line: HTTP/1.1 200 ...
        if (length < 12 || buf[0] != 'H' || buf[4] != '/') {
            throw new IOException("not an HTTP response");
        }
        int status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
        boolean close = buf[7] == '0';
        long contentLength = -1;
        boolean chunked = false;
        String etag = null;
        int line = lineEnd(buf, 0, headerEnd + 2) + 2;
        while (line < headerEnd) {
            int end = lineEnd(buf, line, headerEnd + 2);
            int colon = -1;
            for (int i = line; i < end; i++) {
                if (buf[i] == ':') {
                    colon = i;
                    break;
                }
            }
            if (colon > line) {
                int v = colon + 1;
                while (v < end && buf[v] == ' ') {
                    v++;
                }
                int nameLength = colon - line;
                if (is(buf, line, nameLength, "content-length")) {
                    long n = 0;
                    for (int i = v; i < end && buf[i] >= '0' && buf[i] <= '9'; i++) {
                        n = n * 10 + (buf[i] - '0');
                    }
                    contentLength = n;
                } else if (is(buf, line, nameLength, "transfer-encoding")) {
                    chunked = new String(buf, v, end - v, StandardCharsets.ISO_8859_1).toLowerCase().contains("chunked");
                } else if (is(buf, line, nameLength, "etag")) {
                    etag = new String(buf, v, end - v, StandardCharsets.ISO_8859_1).trim();
                } else if (is(buf, line, nameLength, "connection")) {
                    close = new String(buf, v, end - v, StandardCharsets.ISO_8859_1).trim().equalsIgnoreCase("close");
                }
            }
            line = end + 2;
        }
        int bodyStart = headerEnd + 4;
        if (head || status == 204 || status == 304 || status < 200) {
            return new Parsed(status, EMPTY, etag, close);
        }
        if (chunked) {
            return chunked(buf, bodyStart, length, status, etag, close);
        }
        if (contentLength < 0) {
            throw new IOException("a response without Content-Length or chunked body is not supported");
        }
        if (length - bodyStart < contentLength) {
            return null;
        }
        byte[] body = new byte[(int) contentLength];
        System.arraycopy(buf, bodyStart, body, 0, body.length);
        return new Parsed(status, body, etag, close);
    }

    private static final byte[] EMPTY = new byte[0];

    private static Parsed chunked(byte[] buf, int from, int length, int status, String etag, boolean close) throws IOException {
        // first pass: is the whole body here?
        int p = from;
        int total = 0;
        while (true) {
            int end = lineEnd(buf, p, length);
            if (end < 0) {
                return null;
            }
            int size = 0;
            for (int i = p; i < end && buf[i] != ';'; i++) {
                int d = Character.digit(buf[i], 16);
                if (d < 0) {
                    if (buf[i] == ' ') {
                        continue;
                    }
                    throw new IOException("bad chunk size");
                }
                size = size * 16 + d;
            }
            p = end + 2;
            if (size == 0) {
                // trailers, then an empty line
                while (true) {
                    int e = lineEnd(buf, p, length);
                    if (e < 0) {
                        return null;
                    }
                    boolean empty = e == p;
                    p = e + 2;
                    if (empty) {
                        break;
                    }
                }
                break;
            }
            if (p + size + 2 > length) {
                return null;
            }
            total += size;
            p += size + 2;
        }
        byte[] body = new byte[total];
        p = from;
        int done = 0;
        while (done < total) {
            int end = lineEnd(buf, p, length);
            int size = 0;
            for (int i = p; i < end && buf[i] != ';'; i++) {
                int d = Character.digit(buf[i], 16);
                if (d >= 0) {
                    size = size * 16 + d;
                }
            }
            p = end + 2;
            System.arraycopy(buf, p, body, done, size);
            done += size;
            p += size + 2;
        }
        return new Parsed(status, body, etag, close);
    }

    /** Index of the CRLF ending the line at {@code from}, or -1 before {@code limit}. */
    private static int lineEnd(byte[] buf, int from, int limit) {
        for (int i = from; i + 1 < limit; i++) {
            if (buf[i] == '\r' && buf[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Index of the blank line (CRLF CRLF) ending the headers, or -1. */
    private static int indexOf(byte[] buf, int from, int limit) {
        for (int i = from; i + 3 < limit; i++) {
            if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static boolean is(byte[] buf, int from, int length, String lowerName) {
        if (length != lowerName.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int b = buf[from + i];
            if (b >= 'A' && b <= 'Z') {
                b += 32;
            }
            if (b != lowerName.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
