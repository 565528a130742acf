package org.boxoffice.app.web;

import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.http.HttpCaching;
import org.boxoffice.app.http.HttpConventions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fan's web app: plain ES modules, CSS and one {@code index.html} from {@code web/} on the
 * classpath ({@code app/src/main/resources/web}), served at {@code /}. Pages are addressed by the
 * URL fragment ({@code /#/show/echoes-berlin-1}), so every page loads the same {@code index.html}
 * and no server route is needed per page; the door staff's gate page loads it at {@code /gate/}
 * ({@code /gate/#/gate/fado-1}), where its service worker works ({@link #GATE}).
 *
 * <p>Each file is read once, on its first request, and kept with its strong ETag and (from 1 KB) a
 * gzipped copy, as the API's public reads are ({@link HttpCaching#sendTagged}). The names carry no
 * hash, so a browser must not use its copy unseen after a deploy: every file is
 * {@code Cache-Control: no-cache}, and a revalidation with {@code If-None-Match} costs a 304 without
 * a body. {@code If-Modified-Since} and {@code Range} are not looked at (an answer is the whole file,
 * as RFC 9110 allows), so a malformed date or a huge range is never an error. A name outside the
 * app's files (another extension, a segment starting with a dot, a character outside
 * {@code [A-Za-z0-9._-]}) is a 404 without a look at the class path. Thread-safe.
 *
 * <pre>
 * curl localhost:8080/            # index.html
 * curl localhost:8080/js/app.js   # the entry module
 * curl localhost:8080/gate/       # index.html again, for the gate page
 * </pre>
 */
public final class WebApp implements HttpService {

    /** Revalidate every time: the files' names do not change when their content does. */
    static final String CACHE_CONTROL = "no-cache";
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "ico", "image/x-icon",
            "json", "application/json",
            "txt", "text/plain; charset=utf-8");

    /**
     * The gate page's own path: the same {@code index.html}, at a path of its own so that the gate's
     * service worker ({@code /gate/sw.js}, whose scope is this path) serves the door staff's page when
     * a phone reloads it offline, and never the fan's pages at {@code /}.
     */
    static final String GATE = "/gate/";

    private final String root;
    private final Map<String, File> files = new ConcurrentHashMap<>();

    private record File(String contentType, HttpCaching.Encoded content) {
    }

    private WebApp(String root) {
        this.root = root;
    }

    /** The web app's files; register it after the API so {@code /v1/...} never reaches it. */
    public static HttpService assets() {
        return new WebApp("/web");
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/*", this::serve);
    }

    private void serve(ServerRequest req, ServerResponse res) {
        String path = req.path().path();
        if (path.startsWith("/observe/")) {
            res.next(); // the observe feature's routes (metrics) come after the routing's
            return;
        }
        File file = find(path.equals("/") || path.equals(GATE) ? "/index.html" : path);
        if (file == null) {
            HttpConventions.unrouted(req, res);
            return;
        }
        HttpCaching.sendTagged(req, res, file.content(), CACHE_CONTROL, file.contentType());
    }

    /** The file at {@code path}, or {@code null} if the app has none there. */
    private File find(String path) {
        File known = files.get(path);
        if (known != null) {
            return known;
        }
        String type = contentType(path);
        if (type == null) {
            return null;
        }
        try (InputStream in = WebApp.class.getResourceAsStream(root + path)) {
            if (in == null) {
                return null;
            }
            byte[] bytes = in.readAllBytes();
            File file = new File(type, new HttpCaching.Encoded(bytes, HttpCaching.etagOf(bytes)));
            files.put(path, file);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The media type of a file the app may have at {@code path}, or {@code null} when the path cannot
     * name one: segments of {@code [A-Za-z0-9._-]} that do not start with a dot, ending in a known
     * extension.
     */
    static String contentType(String path) {
        if (path.length() > 200) {
            return null;
        }
        boolean segmentStart = false;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '/') {
                segmentStart = true;
                continue;
            }
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || (c == '.' && !segmentStart);
            if (!ok) {
                return null;
            }
            segmentStart = false;
        }
        int dot = path.lastIndexOf('.');
        return dot < 0 || path.indexOf('/', dot) >= 0 ? null : TYPES.get(path.substring(dot + 1));
    }
}
