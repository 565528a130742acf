package org.boxoffice.bench.http;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One keep-alive HTTP/1.1 connection, one request at a time, blocking. Not thread-safe: a load
 * generator thread owns one.
 *
 * <p>Why not a general client: the load generator shares two cores with the service and
 * PostgreSQL, so every microsecond it spends per request is one the service does not get. This
 * speaks just enough HTTP/1.1 for the Boxoffice API (Content-Length and chunked bodies, ETag,
 * Connection: close) and allocates little per request. A request that fails on the wire is not
 * retried (a POST may have been applied); the connection reopens on the next request.
 */
public final class HttpConnection implements Closeable {

    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int READ_TIMEOUT_MS = 30_000;

    private final String host;
    private final int port;
    private final String hostHeader;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private byte[] request = new byte[4 * 1024];

    public HttpConnection(String host, int port) {
        this.host = host;
        this.port = port;
        this.hostHeader = host + ":" + port;
    }

    public HttpResponse get(String path, String ifNoneMatch) throws IOException {
        return send("GET", path, null, ifNoneMatch, null, null);
    }

    public HttpResponse post(String path, String bearer, String jsonBody) throws IOException {
        return send("POST", path, bearer, null, null, jsonBody);
    }

    public HttpResponse delete(String path, String bearer) throws IOException {
        return send("DELETE", path, bearer, null, null, null);
    }

    /**
     * Sends one request and reads the whole response.
     *
     * @param extraHeader a complete header line without CRLF (such as an Idempotency-Key), or null
     */
    public HttpResponse send(String method, String path, String bearer, String ifNoneMatch, String extraHeader,
                             String jsonBody) throws IOException {
        open();
        try {
            writeRequest(method, path, bearer, ifNoneMatch, extraHeader, jsonBody);
            return readResponse(method.equals("HEAD"));
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void open() throws IOException {
        if (socket != null) {
            return;
        }
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(READ_TIMEOUT_MS);
            s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        in = s.getInputStream();
        out = s.getOutputStream();
        position = 0;
        limit = 0;
    }

    private void writeRequest(String method, String path, String bearer, String ifNoneMatch, String extraHeader,
                              String jsonBody) throws IOException {
        byte[] body = jsonBody == null ? null : jsonBody.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(256 + (bearer == null ? 0 : bearer.length()));
        head.append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(hostHeader).append("\r\n");
        if (bearer != null) {
            head.append("Authorization: Bearer ").append(bearer).append("\r\n");
        }
        endHead(head, ifNoneMatch, extraHeader, body);
        int headLength = head.length();
        int total = headLength + (body == null ? 0 : body.length);
        if (request.length < total) {
            request = new byte[Math.max(total, request.length * 2)];
        }
        // headers are ASCII: one byte per char, no encoder
        for (int i = 0; i < headLength; i++) {
            request[i] = (byte) head.charAt(i);
        }
        if (body != null) {
            System.arraycopy(body, 0, request, headLength, body.length);
        }
        // one write, so head and body leave in one segment
        out.write(request, 0, total);
        out.flush();
    }

    /**
     * Ends a request head (both clients): the conditional and extra header if any, the body's type
     * and length if any, and the blank line.
     */
    static void endHead(StringBuilder head, String ifNoneMatch, String extraHeader, byte[] body) {
        if (ifNoneMatch != null) {
            head.append("If-None-Match: ").append(ifNoneMatch).append("\r\n");
        }
        if (extraHeader != null) {
            head.append(extraHeader).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
    }

    private HttpResponse readResponse(boolean head) throws IOException {
        String statusLine = readLine();
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
            throw new IOException("not an HTTP response: " + statusLine);
        }
        int status = Integer.parseInt(statusLine, 9, 12, 10);
        long contentLength = -1;
        boolean chunked = false;
        boolean closeAfter = statusLine.startsWith("HTTP/1.0");
        String etag = null;
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String value = line.substring(colon + 1).trim();
            if (headerIs(line, colon, "content-length")) {
                contentLength = Long.parseLong(value);
            } else if (headerIs(line, colon, "transfer-encoding")) {
                chunked = value.toLowerCase().contains("chunked");
            } else if (headerIs(line, colon, "etag")) {
                etag = value;
            } else if (headerIs(line, colon, "connection")) {
                closeAfter = value.equalsIgnoreCase("close");
            }
        }
        byte[] body;
        if (head || status == 204 || status == 304 || status < 200) {
            body = new byte[0];
        } else if (chunked) {
            body = readChunked();
        } else if (contentLength >= 0) {
            body = readFully((int) contentLength);
        } else {
            body = readToEnd();
            closeAfter = true;
        }
        if (closeAfter) {
            close();
        }
        return new HttpResponse(status, body, etag);
    }

    private static boolean headerIs(String line, int colon, String name) {
        return colon == name.length() && line.regionMatches(true, 0, name, 0, colon);
    }

    private int fill() throws IOException {
        if (position < limit) {
            return limit - position;
        }
        int n = in.read(buffer, 0, buffer.length);
        if (n < 0) {
            throw new EOFException("connection closed by server");
        }
        position = 0;
        limit = n;
        return n;
    }

    private String readLine() throws IOException {
        StringBuilder sb = null;
        while (true) {
            fill();
            for (int i = position; i < limit; i++) {
                if (buffer[i] == '\n') {
                    int end = i > position && buffer[i - 1] == '\r' ? i - 1 : i;
                    String part = new String(buffer, position, end - position, StandardCharsets.ISO_8859_1);
                    position = i + 1;
                    if (sb == null) {
                        return part;
                    }
                    sb.append(part);
                    int len = sb.length();
                    if (len > 0 && sb.charAt(len - 1) == '\r') {
                        sb.setLength(len - 1);
                    }
                    return sb.toString();
                }
            }
            if (sb == null) {
                sb = new StringBuilder();
            }
            sb.append(new String(buffer, position, limit - position, StandardCharsets.ISO_8859_1));
            position = limit;
            if (sb.length() > 64 * 1024) {
                throw new IOException("header line too long");
            }
        }
    }

    private byte[] readFully(int length) throws IOException {
        byte[] out = new byte[length];
        int done = 0;
        while (done < length) {
            int available = fill();
            int n = Math.min(available, length - done);
            System.arraycopy(buffer, position, out, done, n);
            position += n;
            done += n;
        }
        return out;
    }

    private byte[] readChunked() throws IOException {
        byte[] out = new byte[0];
        while (true) {
            String sizeLine = readLine();
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim(), 16);
            if (size == 0) {
                // trailers end with an empty line
                while (!readLine().isEmpty()) {
                    // ignore trailers
                }
                return out;
            }
            byte[] chunk = readFully(size);
            int old = out.length;
            out = Arrays.copyOf(out, old + size);
            System.arraycopy(chunk, 0, out, old, size);
            readLine();
        }
    }

    private byte[] readToEnd() throws IOException {
        byte[] out = new byte[0];
        while (true) {
            int available;
            try {
                available = fill();
            } catch (EOFException end) {
                return out;
            }
            int old = out.length;
            out = Arrays.copyOf(out, old + available);
            System.arraycopy(buffer, position, out, old, available);
            position = limit;
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            socket = null;
            in = null;
            out = null;
        }
    }
}
