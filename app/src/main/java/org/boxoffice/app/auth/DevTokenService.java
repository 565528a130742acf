package org.boxoffice.app.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;

/**
 * Issues tokens in the embedded demo, so a newcomer can try the API without an identity
 * provider. Registered only when {@code boxoffice.auth.devtokens} is true (demo mode); production
 * turns it off. A dev token carries roles (admin, staff) only when the separate demo setting
 * {@code boxoffice.auth.devroles} is true; otherwise asking for a role is 403, so a demo reachable
 * by others does not hand out admins.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/dev/tokens --json '{"accountId":"alice"}'
 * curl -X POST localhost:8080/v1/dev/tokens --json '{"accountId":"ops","roles":["admin"]}'   # devroles only
 * </pre>
 */
public final class DevTokenService implements HttpService {

    private static final Pattern ACCOUNT = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    private static final Set<String> ROLES = Set.of("admin", "staff");
    private static final Duration LIFETIME = Duration.ofHours(12);

    private final Authenticator auth;
    private final boolean rolesAllowed;

    /** @param rolesAllowed whether tokens may carry roles ({@code boxoffice.auth.devroles}) */
    public DevTokenService(Authenticator auth, boolean rolesAllowed) {
        this.auth = auth;
        this.rolesAllowed = rolesAllowed;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/dev/tokens", this::issue);
    }

    private void issue(ServerRequest req, ServerResponse res) {
        JsonNode body = Json.body(req);
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("accountId") && !f.equals("roles")) {
                throw ApiException.badRequest("unknown field '" + f + "'");
            }
        }
        JsonNode account = body.get("accountId");
        if (account == null || !account.isTextual() || !ACCOUNT.matcher(account.asText()).matches()) {
            throw ApiException.badRequest("'accountId' must be 1-64 characters of letters, digits, '.', '_', '@' or '-'");
        }
        Set<String> roles = new HashSet<>();
        JsonNode r = body.get("roles");
        if (r != null) {
            if (!r.isArray()) {
                throw ApiException.badRequest("'roles' must be an array");
            }
            for (JsonNode n : r) {
                if (!n.isTextual() || !ROLES.contains(n.asText())) {
                    throw ApiException.badRequest("roles are 'admin' or 'staff'");
                }
                roles.add(n.asText());
            }
        }
        if (!roles.isEmpty() && !rolesAllowed) {
            throw Refusals.of(Refusal.FORBIDDEN, "dev tokens carry no roles unless the demo setting "
                    + "boxoffice.auth.devroles is true");
        }
        String token = auth.issue(account.asText(), roles, LIFETIME);
        Json.send(res, 201, Map.of("token", token, "accountId", account.asText(), "roles", roles,
                "expiresAt", Instant.now().plus(LIFETIME)));
    }
}
