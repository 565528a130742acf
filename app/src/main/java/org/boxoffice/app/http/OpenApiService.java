package org.boxoffice.app.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Serves the OpenAPI document ({@code openapi.yaml} on the class path), kept in step with the code
 * by {@code OpenApiDocumentTest}.
 *
 * <pre>
 * curl localhost:8080/openapi
 * </pre>
 */
public final class OpenApiService implements HttpService {

    private final byte[] document;

    public OpenApiService() {
        try (InputStream in = OpenApiService.class.getResourceAsStream("/openapi.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi.yaml missing from the class path");
            }
            document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::serve);
    }

    private void serve(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.CONTENT_TYPE, "application/yaml");
        res.send(document);
    }
}
