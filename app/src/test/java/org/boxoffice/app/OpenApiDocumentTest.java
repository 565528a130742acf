package org.boxoffice.app;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Keeps the OpenAPI document valid and in step with the code: a real OpenAPI 3 parser
 * (swagger-parser, the one OpenAPI Generator uses) reads it without a single error or warning, every
 * route an HTTP service registers is documented, and every documented operation exists. Routes are
 * read from the services' sources ({@code rules.get("/path", ...)}, registered under {@code /v1}).
 */
class OpenApiDocumentTest {

    /** 201 answers that create no addressable resource, so carry no Location. */
    private static final Set<String> CREATED_WITHOUT_ADDRESS = Set.of("issueDevToken");

    @Test
    void document_isValidOpenApi3_withoutErrorsOrWarnings() throws IOException {
        SwaggerParseResult result = parse(false);
        assertNotNull(result.getOpenAPI(), "the parser could not read the document: " + result.getMessages());
        assertEquals(List.of(), result.getMessages(), "parser errors and warnings");
    }

    /**
     * What generated clients rely on: a unique operationId per operation, security stated on each
     * (public ones say {@code security: []}), a body documented for every 200/201/202, Location on
     * every 201 that creates a resource, Retry-After on every 429 and 503, and a relative server
     * (the document is served by the service it describes, on whatever host and port).
     */
    @Test
    void everyOperation_isNamed_statesItsSecurity_andDocumentsItsBodiesAndHeaders() throws IOException {
        OpenAPI api = parse(true).getOpenAPI();
        List<String> problems = new ArrayList<>();
        api.getServers().stream().filter(s -> !s.getUrl().startsWith("/"))
                .forEach(s -> problems.add("server " + s.getUrl() + " is not relative"));
        Set<String> ids = new HashSet<>();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, op) -> {
            String name = method + " " + path;
            if (op.getOperationId() == null || !ids.add(op.getOperationId())) {
                problems.add(name + ": no operationId, or one used twice");
            }
            if (op.getSecurity() == null) {
                problems.add(name + ": security not stated (a public operation says security: [])");
            }
            op.getResponses().forEach((status, response) -> {
                Map<String, ?> headers = response.getHeaders() == null ? Map.of() : response.getHeaders();
                if (Set.of("200", "201", "202").contains(status)
                        && (response.getContent() == null || response.getContent().isEmpty())) {
                    problems.add(name + " " + status + ": body not documented");
                }
                if (status.equals("201") && !CREATED_WITHOUT_ADDRESS.contains(String.valueOf(op.getOperationId()))
                        && !headers.containsKey("Location")) {
                    problems.add(name + " 201: Location not declared");
                }
                if ((status.equals("429") || status.equals("503")) && !headers.containsKey("Retry-After")) {
                    problems.add(name + " " + status + ": Retry-After not declared");
                }
            });
        }));
        assertEquals(List.of(), problems);
    }

    private SwaggerParseResult parse(boolean inline) throws IOException {
        String yaml;
        try (InputStream in = getClass().getResourceAsStream("/openapi.yaml")) {
            yaml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setResolveFully(inline);
        return new OpenAPIV3Parser().readContents(yaml, null, options);
    }

    private static final Pattern ROUTE = Pattern.compile("\\.(get|post|put|delete|patch)\\(\"(/[^\"]*)\"");

    @Test
    void documentedOperations_matchTheRoutesInTheCode() throws IOException {
        Set<String> documented = new TreeSet<>();
        try (InputStream in = getClass().getResourceAsStream("/openapi.yaml")) {
            Map<String, Object> doc = new Yaml().load(in);
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) doc.get("paths");
            paths.forEach((path, ops) -> ops.keySet().forEach(method -> documented.add(method.toUpperCase() + " " + path)));
        }
        Set<String> routed = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith("Service.java")).toList()) {
                String source = Files.readString(file);
                if (!source.contains("implements HttpService")) {
                    continue;
                }
                Matcher m = ROUTE.matcher(source);
                while (m.find()) {
                    String path = m.group(2);
                    String prefix = file.getFileName().toString().equals("OpenApiService.java") ? "/openapi" : "/v1";
                    routed.add(m.group(1).toUpperCase() + " " + (path.equals("/") ? prefix : prefix + path));
                }
            }
        }
        assertEquals(routed, documented);
    }
}
