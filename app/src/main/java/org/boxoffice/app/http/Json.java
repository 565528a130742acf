package org.boxoffice.app.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The one JSON mapper of the service, and helpers to read request bodies strictly and send responses. */
public final class Json {

    /**
     * Strict on input: a field given twice in one object is an error (Jackson would otherwise keep the
     * last one silently, so {@code {"seatIds":["A"],"seatIds":["B"]}} would hold B).
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // one JSON value per body: "{...} trailing" or two objects in a row is a 400, not the first one
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private static final int MAX_BODY = 64 * 1024;

    private Json() {
    }

    /**
     * The request body as a JSON object; 400 if it is missing, too large, not a JSON object, followed
     * by anything but whitespace, or carries a NUL (U+0000) in a name or a string: PostgreSQL cannot
     * store one in text, and a NUL that got that far would read as a database outage.
     */
    public static JsonNode body(ServerRequest req) {
        if (!req.content().hasEntity()) {
            throw ApiException.badRequest("a JSON body is required");
        }
        byte[] bytes = read(req);
        if (!wellFormedUtf8(bytes)) {
            // Jackson decodes an overlong form (0xC0 0xAE for '.') as the character it hides
            throw ApiException.badRequest("the body is not well-formed UTF-8");
        }
        try {
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw ApiException.badRequest("the body must be a JSON object");
            }
            if (hasNul(node)) {
                throw ApiException.badRequest("strings in the body may not contain NUL (U+0000)");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest(problem(e));
        } catch (java.io.IOException e) {
            throw ApiException.badRequest("unreadable body");
        }
    }

    /**
     * Whether {@code bytes} are well-formed UTF-8 (RFC 3629): no overlong form, no surrogate, nothing
     * above U+10FFFF, no sequence cut short. ASCII, what nearly every body is, costs one pass.
     */
    static boolean wellFormedUtf8(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0) {
                return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(bytes), java.nio.CharBuffer.allocate(bytes.length), true)
                        .isUnderflow();
            }
        }
        return true;
    }

    /** Whether a name or a string anywhere in {@code node} contains NUL (U+0000), which PostgreSQL cannot store. */
    public static boolean hasNul(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue().indexOf('\u0000') >= 0;
        }
        if (node.isObject()) {
            for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                java.util.Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().indexOf('\u0000') >= 0 || hasNul(e.getValue())) {
                    return true;
                }
            }
            return false;
        }
        if (node.isArray()) {
            for (JsonNode item : node) {
                if (hasNul(item)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The body's bytes. With a Content-Length (what clients send for a small JSON body) it is read
     * into an array of exactly that size: Helidon's {@code as(byte[].class)} reads through
     * {@code InputStream.readAllBytes}, which allocates and copies 16 KB buffers for a 40-byte body,
     * and that showed in the profile of every hold request.
     */
    private static byte[] read(ServerRequest req) {
        long declared = req.headers().contentLength().orElse(-1);
        byte[] bytes;
        try {
            if (declared >= 0 && declared <= MAX_BODY) {
                try (java.io.InputStream in = req.content().inputStream()) {
                    bytes = in.readNBytes((int) declared);
                }
            } else {
                // chunked or too large: Helidon reads it (and enforces server.max-payload-size with its own
                // 413), so the connection stays in step with the client that is still sending
                bytes = req.content().as(byte[].class);
            }
        } catch (io.helidon.http.HttpException e) {
            throw e;
        } catch (java.io.IOException | RuntimeException e) {
            // a chunk size that is not hex, or a client gone before the end of its body: its fault, not ours
            throw ApiException.badRequest("the body could not be read: a malformed chunk, or it ended before its end");
        }
        if (bytes.length > MAX_BODY) {
            throw Refusals.of(Refusal.PAYLOAD_TOO_LARGE, "request bodies are limited to 64 KB");
        }
        return bytes;
    }

    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '([^']{1,64})'.*", Pattern.DOTALL);

    /** What is wrong with a body Jackson could not read, in plain words (no parser internals). */
    public static String problem(JsonProcessingException e) {
        Matcher duplicate = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
        String where = e.getLocation() == null || e.getLocation().getLineNr() < 1 ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        if (duplicate.matches()) {
            return "the field '" + duplicate.group(1) + "' appears more than once" + where;
        }
        return "the body is not well-formed JSON" + where;
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize response", e);
        }
    }

    /** {@code value} as UTF-8 JSON bytes. */
    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize response", e);
        }
    }

    public static void send(ServerResponse res, int status, Object value) {
        if (value instanceof String s) {
            sendRaw(res, status, s);
            return;
        }
        sendBytes(res, status, bytes(value)); // UTF-8 straight away, no String in between
    }

    public static void sendRaw(ServerResponse res, int status, String json) {
        sendBytes(res, status, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a JSON body that is already encoded. */
    public static void sendBytes(ServerResponse res, int status, byte[] json) {
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        HttpConventions.send(res, json);
    }
}
