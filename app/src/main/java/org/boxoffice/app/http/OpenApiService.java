package org.boxoffice.app.http;

import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Serves the OpenAPI document ({@code openapi.yaml} on the class path), kept in step with the code
 * by {@code OpenApiDocumentTest}: with a strong ETag, {@code Cache-Control: no-cache} and gzipped to
 * clients that accept it.
 *
 * <pre>
 * curl localhost:8080/openapi
 * </pre>
 */
public final class OpenApiService implements HttpService {

    private final HttpCaching.Encoded document;

    public OpenApiService() {
        try (InputStream in = OpenApiService.class.getResourceAsStream("/openapi.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi.yaml missing from the class path");
            }
            byte[] yaml = in.readAllBytes();
            document = new HttpCaching.Encoded(yaml, HttpCaching.etagOf(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::serve);
    }

    /** The document changes only with a deploy: revalidated every time, a 304 while it is the same. */
    private void serve(ServerRequest req, ServerResponse res) {
        HttpCaching.sendTagged(req, res, document, "no-cache", "application/yaml");
    }
}
