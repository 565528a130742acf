package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Answers checked against the OpenAPI document ({@code openapi.yaml}, parsed once per test JVM with
 * swagger-parser, {@code $ref}s and {@code allOf}s resolved): the status is one the operation
 * documents, and a JSON body fits the documented schema (types, required fields, enums, no field a
 * closed object does not name, nullability). What a generated client with validation on would
 * check. {@link TestApp.Http} runs every answer it receives through {@link #verify}, so every HTTP
 * test checks the document as a side effect; a request the document has no operation for (the
 * metrics, the web app's files, a path a test made up to see it refused) is not checked there.
 * Test code; thread-safe.
 */
final class OpenApiAnswers {

    /** The parsed document and its paths, most specific first (a literal segment beats a parameter). */
    private static final class Document {
        static final OpenAPI API = parse();
        static final List<Map.Entry<String[], PathItem>> PATHS = paths(API);
    }

    /**
     * Not acceptable, URI too long, headers too large: answered before any operation runs, to any
     * request, as the document's description says once for all (operations list what they themselves
     * answer).
     */
    private static final java.util.Set<Integer> BEFORE_ROUTING = java.util.Set.of(406, 414, 431);

    private OpenApiAnswers() {
    }

    /** Fails with every disagreement between the answer and the document; no-op if no operation is documented. */
    static void verify(String method, String path, TestApp.Http.Reply r) {
        Operation op = operation(method, path);
        if (op == null) {
            return;
        }
        List<String> problems = new ArrayList<>();
        check(op, method + " " + path + " -> " + r.status(), r, problems);
        if (!problems.isEmpty()) {
            throw new AssertionError("the answer disagrees with openapi.yaml: " + problems + "\nbody: " + abbreviated(r.body()));
        }
    }

    /**
     * The disagreements between the answer and the document, one line each; an operation the
     * document does not have is one too.
     */
    static List<String> problems(String method, String path, TestApp.Http.Reply r) {
        List<String> problems = new ArrayList<>();
        Operation op = operation(method, path);
        if (op == null) {
            problems.add(method + " " + path + " -> " + r.status() + ": no documented operation");
        } else {
            check(op, method + " " + path + " -> " + r.status(), r, problems);
        }
        return problems;
    }

    private static void check(Operation op, String what, TestApp.Http.Reply r, List<String> problems) {
        if (BEFORE_ROUTING.contains(r.status())) {
            return;
        }
        ApiResponse response = op.getResponses().get(Integer.toString(r.status()));
        if (response == null) {
            response = op.getResponses().get(r.status() / 100 + "XX");
        }
        if (response == null) {
            problems.add(what + ": status not documented");
            return;
        }
        MediaType json = response.getContent() == null ? null : response.getContent().get("application/json");
        if (json == null || json.getSchema() == null || r.status() == 304
                || r.headers().firstValue("Content-Encoding").isPresent()) {
            return;
        }
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("application/json")) {
            problems.add(what + ": Content-Type '" + type + "', documented application/json");
            return;
        }
        JsonNode body;
        try {
            body = org.boxoffice.app.http.Json.MAPPER.readTree(r.body());
        } catch (IOException e) {
            problems.add(what + ": body is not JSON");
            return;
        }
        if (body == null || body.isMissingNode()) {
            problems.add(what + ": no body, documented JSON");
            return;
        }
        validate(body, json.getSchema(), what + " $", problems);
    }

    private static Operation operation(String method, String path) {
        PathItem.HttpMethod m;
        try {
            m = PathItem.HttpMethod.valueOf(method);
        } catch (IllegalArgumentException e) {
            return null;    // HEAD, OPTIONS: the document describes GET and the others
        }
        int query = path.indexOf('?');
        String[] parts = (query < 0 ? path : path.substring(0, query)).substring(1).split("/", -1);
        for (Map.Entry<String[], PathItem> e : Document.PATHS) {
            String[] template = e.getKey();
            if (template.length != parts.length) {
                continue;
            }
            boolean match = true;
            for (int i = 0; i < parts.length && match; i++) {
                match = template[i].startsWith("{") ? !parts[i].isEmpty() : template[i].equals(parts[i]);
            }
            if (match) {
                return e.getValue().readOperationsMap().get(m);
            }
        }
        return null;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void validate(JsonNode node, Schema schema, String at, List<String> problems) {
        if (node.isNull()) {
            if (!Boolean.TRUE.equals(schema.getNullable()) && schema.getType() != null) {
                problems.add(at + ": null, not nullable");
            }
            return;
        }
        String type = schema.getType();
        if (type == null) {
            return;     // no type stated: anything fits
        }
        boolean fits = switch (type) {
            case "object" -> node.isObject();
            case "array" -> node.isArray();
            case "string" -> node.isTextual();
            case "integer" -> node.isIntegralNumber();
            case "number" -> node.isNumber();
            case "boolean" -> node.isBoolean();
            default -> true;
        };
        if (!fits) {
            problems.add(at + ": " + node.getNodeType() + ", documented " + type);
            return;
        }
        if (schema.getEnum() != null && node.isTextual() && !schema.getEnum().contains(node.asText())) {
            problems.add(at + ": '" + node.asText() + "' not in " + schema.getEnum());
        }
        if (node.isArray() && schema.getItems() != null) {
            for (int i = 0; i < node.size(); i++) {
                validate(node.get(i), schema.getItems(), at + "[" + i + "]", problems);
            }
        }
        if (node.isObject()) {
            Map<String, Schema> properties = schema.getProperties() == null ? Map.of() : schema.getProperties();
            List<String> required = schema.getRequired() == null ? List.of() : schema.getRequired();
            for (String name : required) {
                if (!node.has(name)) {
                    problems.add(at + ": required field '" + name + "' missing");
                }
            }
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                Schema property = properties.get(name);
                if (property != null) {
                    validate(node.get(name), property, at + "." + name, problems);
                } else if (Boolean.FALSE.equals(schema.getAdditionalProperties())) {
                    problems.add(at + ": field '" + name + "' not documented");
                } else if (schema.getAdditionalProperties() instanceof Schema extra) {
                    validate(node.get(name), extra, at + "." + name, problems);
                }
            }
        }
    }

    private static String abbreviated(String body) {
        return body.length() <= 500 ? body : body.substring(0, 500) + "…";
    }

    private static OpenAPI parse() {
        try (InputStream in = OpenApiAnswers.class.getResourceAsStream("/openapi.yaml")) {
            ParseOptions options = new ParseOptions();
            options.setResolve(true);
            options.setResolveFully(true);
            return new OpenAPIV3Parser().readContents(new String(in.readAllBytes(), StandardCharsets.UTF_8), null, options)
                    .getOpenAPI();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Map.Entry<String[], PathItem>> paths(OpenAPI api) {
        List<Map.Entry<String[], PathItem>> paths = new ArrayList<>();
        api.getPaths().forEach((template, item) -> paths.add(Map.entry(template.substring(1).split("/", -1), item)));
        // /v1/accounts/me/bookings before /v1/accounts/{id}/...: the more literal segments, the earlier
        paths.sort(Comparator.comparingLong(e -> java.util.Arrays.stream(e.getKey()).filter(s -> s.startsWith("{")).count()));
        return List.copyOf(paths);
    }
}
