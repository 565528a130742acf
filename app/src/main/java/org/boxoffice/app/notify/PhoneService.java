package org.boxoffice.app.notify;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.domain.ContactRepository;
import org.boxoffice.domain.PhoneNumber;

import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The caller's phone number, optional: with one, tickets and notices also go by SMS.
 *
 * <pre>
 * curl -X PUT localhost:8080/v1/accounts/me/phone -H "Authorization: Bearer $TOKEN" --json '{"phone":"+4915112345678"}'
 * curl localhost:8080/v1/accounts/me/phone -H "Authorization: Bearer $TOKEN"
 * curl -X DELETE localhost:8080/v1/accounts/me/phone -H "Authorization: Bearer $TOKEN"
 * </pre>
 */
public final class PhoneService implements HttpService {

    private final ContactRepository contacts;
    private final Authenticator auth;
    private final LongSupplier clock;

    PhoneService(ContactRepository contacts, Authenticator auth, LongSupplier clock) {
        this.contacts = contacts;
        this.auth = auth;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/accounts/me/phone", this::get)
                .put("/accounts/me/phone", this::put)
                .delete("/accounts/me/phone", this::delete);
    }

    private void get(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        PhoneNumber phone = contacts.phone(caller.accountId())
                .orElseThrow(() -> ApiException.notFound("a phone number of this account"));
        Json.send(res, 200, Map.of("phone", phone.e164()));
    }

    private void put(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        JsonNode body = Json.body(req);
        JsonNode phone = body.get("phone");
        if (phone == null || !phone.isTextual() || body.size() != 1) {
            throw Refusals.of(Refusal.INVALID_PHONE, "the body is {\"phone\": \"+4915112345678\"}");
        }
        PhoneNumber number;
        try {
            number = PhoneNumber.parse(phone.textValue());
        } catch (IllegalArgumentException e) {
            throw Refusals.of(Refusal.INVALID_PHONE, e.getMessage());
        }
        contacts.setPhone(caller.accountId(), number, clock.getAsLong());
        Json.send(res, 200, Map.of("phone", number.e164()));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        contacts.removePhone(caller.accountId());
        res.status(204).send();
    }
}
