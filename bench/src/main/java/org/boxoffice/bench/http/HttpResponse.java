package org.boxoffice.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** A complete response: status, body bytes and the ETag header (or null). */
public record HttpResponse(int status, byte[] body, String etag) {

    public static final ObjectMapper JSON = new ObjectMapper();

    public JsonNode json() {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("response " + status + " is not JSON: " + text(), e);
        }
    }

    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** Throws with the response text unless the status is {@code expected}. */
    public HttpResponse expect(int expected, String what) {
        if (status != expected) {
            throw new IllegalStateException(what + ": HTTP " + status + " " + text());
        }
        return this;
    }
}
