package org.boxoffice.app.mail;

import com.nimbusds.jwt.SignedJWT;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import org.boxoffice.app.auth.Principal;

import java.text.ParseException;
import java.util.Optional;

/**
 * Where a fan's mail goes (tickets, waitlist offers). Accounts have no address of their own yet, so:
 * the bearer token's {@code email} claim if it has a valid one, else the configured pattern
 * ({@code boxoffice.mail.to}, default {@code {accountId}@example.test}). The address is taken when
 * the fan asks (the checkout starts, the fan joins a waitlist) and kept with what will be mailed, so
 * a mail sent later (by webhook, reconciliation or an offer) still knows it.
 */
public final class Recipients {

    private static final int MAX_ADDRESS = 254;

    private Recipients() {
    }

    /**
     * The recipient for the caller of {@code req}. Call only after the token was verified
     * ({@code Authenticator.require}): the claim is read, not checked, here.
     */
    public static String of(ServerRequest req, Principal caller, String pattern) {
        return emailClaim(req).orElseGet(() -> {
            String address = pattern.replace("{accountId}", caller.accountId());
            return valid(address) ? address : caller.accountId() + "@example.test";
        });
    }

    private static Optional<String> emailClaim(ServerRequest req) {
        Optional<String> header = req.headers().first(HeaderNames.AUTHORIZATION);
        if (header.isEmpty() || header.get().length() < 8) {
            return Optional.empty();
        }
        try {
            Object email = SignedJWT.parse(header.get().substring(7).trim()).getJWTClaimsSet().getClaim("email");
            return email instanceof String s && valid(s) ? Optional.of(s) : Optional.empty();
        } catch (ParseException e) {
            return Optional.empty();
        }
    }

    /**
     * An address as a log may show it: the first letter of its local part and of its domain, and the
     * domain's last label ({@code d***@f***.example}); never the whole address.
     */
    public static String mask(String address) {
        if (address == null) {
            return "***";
        }
        int at = address.lastIndexOf('@');
        if (at < 1 || at == address.length() - 1) {
            return "***";
        }
        String domain = address.substring(at + 1);
        int dot = domain.lastIndexOf('.');
        return address.charAt(0) + "***@" + domain.charAt(0) + "***" + (dot > 0 ? domain.substring(dot) : "");
    }

    public static boolean valid(String address) {
        if (address == null || address.isBlank() || address.length() > MAX_ADDRESS) {
            return false;
        }
        try {
            new InternetAddress(address, true).validate();
            return true;
        } catch (AddressException e) {
            return false;
        }
    }
}
