package org.boxoffice.app.auth;

import java.util.Set;

/** The caller: the token's {@code sub} claim is the account id; {@code roles} may hold admin or staff. */
public record Principal(String accountId, Set<String> roles) {

    public boolean isAdmin() {
        return roles.contains("admin");
    }

    public boolean hasRole(String role) {
        return roles.contains(role) || isAdmin();
    }
}
