package org.boxoffice.app.web;

import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.staticcontent.ClasspathHandlerConfig;
import io.helidon.webserver.staticcontent.StaticContentFeature;

/**
 * The fan's web app: plain ES modules, CSS and one {@code index.html} from {@code web/} on the
 * classpath ({@code app/src/main/resources/web}), served at {@code /}. Pages are addressed by the
 * URL fragment ({@code /#/show/echoes-berlin-1}), so every page loads the same {@code index.html}
 * and no server route is needed per page.
 *
 * <pre>
 * curl localhost:8080/            # index.html
 * curl localhost:8080/js/app.js   # the entry module
 * </pre>
 */
public final class WebApp {

    private WebApp() {
    }

    /** The static-content service; register it after the API so {@code /v1/...} never reaches it. */
    public static HttpService assets() {
        return StaticContentFeature.createService(ClasspathHandlerConfig.builder()
                .location("web")
                .welcome("index.html")
                .build());
    }
}
