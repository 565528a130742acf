package org.boxoffice.app;

import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void document_isValidOpenApi3_withoutErrorsOrWarnings() throws IOException {
        String yaml;
        try (InputStream in = getClass().getResourceAsStream("/openapi.yaml")) {
            yaml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(yaml, null, options);
        assertNotNull(result.getOpenAPI(), "the parser could not read the document: " + result.getMessages());
        assertEquals(java.util.List.of(), result.getMessages(), "parser errors and warnings");
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
