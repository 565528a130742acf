package org.boxoffice.app.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A small JSON writer straight to UTF-8 bytes, for the one answer that must cost what a plain
 * request costs: the fast gate's {@code 409 SEATS_UNAVAILABLE}. It writes the same bytes as
 * {@link Json#MAPPER} does for the same map (field order, escaping), without building a tree or
 * reflecting over a value. Not thread-safe; one per answer.
 */
public final class JsonBytes {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    private boolean first = true;

    public JsonBytes() {
        out.write('{');
    }

    public JsonBytes field(String name, String value) {
        name(name);
        string(value);
        return this;
    }

    public JsonBytes field(String name, List<String> values) {
        name(name);
        strings(values);
        return this;
    }

    public JsonBytes field(String name, int value) {
        name(name);
        out.writeBytes(Integer.toString(value).getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    /** A decimal number as Jackson writes a {@link java.math.BigDecimal}: plain, its scale kept. */
    public JsonBytes field(String name, java.math.BigDecimal value) {
        name(name);
        out.writeBytes(value.toString().getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    /** An instant as the service's mapper writes one: ISO-8601 in UTC. */
    public JsonBytes field(String name, java.time.Instant value) {
        return field(name, value.toString());
    }

    public JsonBytes fieldOfLists(String name, List<List<String>> values) {
        name(name);
        out.write('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            strings(values.get(i));
        }
        out.write(']');
        return this;
    }

    public byte[] toBytes() {
        out.write('}');
        return out.toByteArray();
    }

    private void name(String name) {
        if (!first) {
            out.write(',');
        }
        first = false;
        string(name);
        out.write(':');
    }

    private void strings(List<String> values) {
        out.write('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            string(values.get(i));
        }
        out.write(']');
    }

    /** A JSON string as Jackson writes it: quote, backslash and control characters escaped. */
    private void string(String s) {
        out.write('"');
        int plainFrom = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.writeBytes(s.substring(plainFrom, i).getBytes(StandardCharsets.UTF_8));
            plainFrom = i + 1;
            switch (c) {
                case '"' -> out.writeBytes(new byte[] {'\\', '"'});
                case '\\' -> out.writeBytes(new byte[] {'\\', '\\'});
                case '\n' -> out.writeBytes(new byte[] {'\\', 'n'});
                case '\r' -> out.writeBytes(new byte[] {'\\', 'r'});
                case '\t' -> out.writeBytes(new byte[] {'\\', 't'});
                case '\b' -> out.writeBytes(new byte[] {'\\', 'b'});
                case '\f' -> out.writeBytes(new byte[] {'\\', 'f'});
                default -> out.writeBytes(new byte[] {'\\', 'u', '0', '0', HEX[c >> 4], HEX[c & 0xF]});
            }
        }
        out.writeBytes(s.substring(plainFrom).getBytes(StandardCharsets.UTF_8));
        out.write('"');
    }
}
