package org.boxoffice.app.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.boxoffice.app.http.ApiException;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lean HS256 reader decides every token as the Nimbus path does: the same principal, or the same
 * 401 for the same reason. Tokens are minted by Nimbus, or built by hand where Nimbus would not build
 * them (another algorithm in the header, odd JSON), and signed with the service's secret so that
 * everything after the signature is reached too.
 */
class AuthenticatorTest {

    private static final String SECRET = "authenticator-test-secret-of-at-least-32-bytes";
    private static final String ISSUER = "https://id.boxoffice.test";
    private static final long NOW = 1_790_000_000_000L;
    private static final long HOUR = 3_600_000;
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final AuthSettings anyIssuer = new AuthSettings(SECRET, null, null, false, false);
    private final AuthSettings oneIssuer = new AuthSettings(SECRET, null, ISSUER, false, false);

    @Test
    void theServicesOwnTokens_areReadWithoutNimbus_andAccepted() {
        Authenticator auth = new Authenticator(anyIssuer, () -> NOW);
        String token = auth.issue("alice", Set.of("staff"), Duration.ofHours(12));
        assertInstanceOf(Hs256TokenReader.Outcome.Read.class, reader().read(token));
        assertEquals(new Principal("alice", Set.of("staff")), auth.verify(token));
        assertEquals(new Principal("bob", Set.of()), auth.verify(auth.issue("bob", Set.of(), Duration.ofHours(1))));
        String provider = nimbus(claims().claim("email", "ben@fans.example").audience(List.of("boxoffice", "web"))
                .jwtID("j-1").notBeforeTime(new Date(NOW - HOUR)).claim("scope", Map.of("seats", List.of(1, 2))));
        assertInstanceOf(Hs256TokenReader.Outcome.Read.class, reader().read(provider), "an identity provider's token");
    }

    @Test
    void forgedTokens_areRefusedByTheLeanReaderItself() {
        String good = nimbus(claims());
        String[] parts = good.split("\\.");
        String forgedPayload = B64.encodeToString("{\"sub\":\"admin\",\"exp\":1890000000,\"roles\":[\"admin\"]}"
                .getBytes(StandardCharsets.UTF_8));
        Map<String, String> forged = new LinkedHashMap<>();
        forged.put("tampered payload", parts[0] + "." + forgedPayload + "." + parts[2]);
        forged.put("tampered signature", parts[0] + "." + parts[1] + "." + flipFirst(parts[2]));
        forged.put("signature of another token", parts[0] + "." + parts[1] + "." + nimbus(claims().subject("bob")).split("\\.")[2]);
        forged.put("alg none, no signature", raw("{\"alg\":\"none\"}", "{\"sub\":\"admin\",\"exp\":1890000000}", "none", ""));
        forged.put("alg none, a signature", raw("{\"alg\":\"none\"}", "{\"sub\":\"admin\",\"exp\":1890000000}", "none", "x")
                .replaceFirst("\\.x$", "." + parts[2]));
        forged.put("HS384 with the secret", raw("{\"alg\":\"HS384\"}", payload(claims()), "HmacSHA384", SECRET));
        forged.put("RS256 header, HMAC signature", raw("{\"alg\":\"RS256\"}", payload(claims()), "HmacSHA256", SECRET));
        forged.put("hs256 in lower case", raw("{\"alg\":\"hs256\"}", payload(claims()), "HmacSHA256", SECRET));
        forged.put("another secret", raw("{\"alg\":\"HS256\"}", payload(claims()), "HmacSHA256", SECRET + "x"));
        forged.put("four parts", good + ".e30");
        forged.put("five parts", good + ".e30.e30");
        forged.put("two parts", parts[0] + "." + parts[1]);
        forged.put("empty signature", parts[0] + "." + parts[1] + ".");
        for (var f : forged.entrySet()) {
            assertInstanceOf(Hs256TokenReader.Outcome.Refused.class, reader().read(f.getValue()), f.getKey());
            assertTrue(decide(new Authenticator(anyIssuer, () -> NOW), f.getValue()).startsWith("401 "), f.getKey());
        }
        String noHeader = raw("", payload(claims()), "HmacSHA256", SECRET);
        assertInstanceOf(Hs256TokenReader.Outcome.Unusual.class, reader().read(noHeader), "no header is left to Nimbus");
        assertEquals("401 invalid bearer token (unreadable)", decide(new Authenticator(anyIssuer, () -> NOW), noHeader));
    }

    @Test
    void everyVector_isDecidedAsNimbusDecidesIt_withTheExpectedOutcome() {
        Map<String, String> expected = new LinkedHashMap<>(); // token -> the outcome, for both issuers' settings
        Map<String, String> names = new LinkedHashMap<>();
        vectors().forEach((name, v) -> {
            names.put(v[0], name);
            expected.put(v[0], v[1]);
        });
        for (AuthSettings settings : List.of(anyIssuer, oneIssuer)) {
            Authenticator lean = new Authenticator(settings, () -> NOW);
            Authenticator nimbus = Authenticator.nimbusOnly(settings, () -> NOW);
            List<String> wrong = new ArrayList<>();
            for (var e : expected.entrySet()) {
                String name = names.get(e.getKey()) + (settings.issuer() == null ? "" : " (issuer configured)");
                String outcome = decide(lean, e.getKey());
                String reference = decide(nimbus, e.getKey());
                if (!reference.equals(outcome)) {
                    wrong.add(name + ": lean " + outcome + ", Nimbus " + reference);
                }
                String want = e.getValue().replace(" [iss]", "");
                if (settings.issuer() != null) {
                    // the issuer is checked after the dates and before the subject and roles
                    boolean ours = e.getValue().contains("[iss]");
                    want = want.startsWith("ok") && !ours ? "401 invalid bearer token (wrong issuer)" : want;
                    if (!want.startsWith("ok")) {
                        if (!outcome.startsWith("401 ")) {
                            wrong.add(name + ": " + outcome);
                        }
                        continue;
                    }
                }
                if (!want.equals(outcome)) {
                    wrong.add(name + ": " + outcome + ", expected " + want);
                }
            }
            assertEquals(List.of(), wrong);
        }
    }

    @Test
    void manyThreads_verifyTheirOwnTokensAtOnce() throws Exception {
        Authenticator auth = new Authenticator(anyIssuer, () -> NOW);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            tokens.add(nimbus(claims().subject("fan-" + i)));
        }
        String forged = tokens.get(0).substring(0, tokens.get(0).lastIndexOf('.') + 1) + tokens.get(1).split("\\.")[2];
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<java.util.concurrent.Future<String>> outcomes = new ArrayList<>();
            for (String token : tokens) {
                outcomes.add(threads.submit(() -> decide(auth, token)));
                outcomes.add(threads.submit(() -> decide(auth, forged)));
            }
            for (int i = 0; i < tokens.size(); i++) {
                assertEquals("ok fan-" + i + " [staff]", outcomes.get(2 * i).get());
                assertEquals("401 invalid bearer token (bad signature)", outcomes.get(2 * i + 1).get());
            }
        }
    }

    @Test
    void randomTokens_areDecidedAsNimbusDecidesThem() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int read = 0;
        for (AuthSettings settings : List.of(anyIssuer, oneIssuer)) {
            Authenticator lean = new Authenticator(settings, () -> NOW);
            Authenticator nimbus = Authenticator.nimbusOnly(settings, () -> NOW);
            for (int i = 0; i < 10_000; i++) {
                String token = randomToken(random);
                assertEquals(decide(nimbus, token), decide(lean, token), "seed " + seed + ": " + token);
                read += reader().read(token) instanceof Hs256TokenReader.Outcome.Read ? 1 : 0;
            }
        }
        assertTrue(read > 1_000, "most signed tokens of plain shapes are read without Nimbus: " + read);
    }

    @Test
    void rs256Tokens_areStillVerifiedByNimbus_andHs256OnesRefused() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        KeyPair keys = g.generateKeyPair();
        String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        Authenticator auth = new Authenticator(new AuthSettings(null, pem, null, false, false), () -> NOW);
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims().build());
        jwt.sign(new RSASSASigner(keys.getPrivate()));
        assertEquals("ok alice [staff]", decide(auth, jwt.serialize()));
        assertEquals("401 invalid bearer token (bad signature)", decide(auth, nimbus(claims())));
        String keyAsSecret = raw("{\"alg\":\"HS256\"}", payload(claims()), "HmacSHA256", pem);
        assertEquals("401 invalid bearer token (bad signature)", decide(auth, keyAsSecret));
        IllegalArgumentException notAKey = assertThrows(IllegalArgumentException.class,
                () -> new Authenticator(new AuthSettings(null, pem.replace("MII", "MIJ"), null, false, false), () -> NOW));
        assertTrue(notAKey.getMessage().contains("BEGIN PUBLIC KEY"), notAKey.getMessage());
    }

    /** Name -> {token, outcome}; an outcome marked [iss] holds with the issuer configured too. */
    private Map<String, String[]> vectors() {
        Map<String, String[]> v = new LinkedHashMap<>();
        String subjectRule = "401 invalid bearer token (the subject must be an account id of 1 to 64 printable characters without spaces)";
        String unreadable = "401 invalid bearer token (unreadable)";
        String badSignature = "401 invalid bearer token (bad signature)";
        String good = nimbus(claims());
        String[] parts = good.split("\\.");
        v.put("valid", new String[] {good, "ok alice [staff]"});
        v.put("valid with the issuer", new String[] {nimbus(claims().issuer(ISSUER)), "ok alice [staff] [iss]"});
        v.put("another issuer", new String[] {nimbus(claims().issuer("https://evil.test")), "ok alice [staff]"});
        v.put("issued by the service", new String[] {new Authenticator(anyIssuer, () -> NOW).issue("carol", Set.of(), Duration.ofHours(1)), "ok carol []"});
        v.put("typ and kid", new String[] {nimbus(new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT).keyID("k1").build(), claims()), "ok alice [staff]"});
        v.put("expired", new String[] {nimbus(claims().expirationTime(new Date(NOW - 1_000))), "401 invalid bearer token (expired)"});
        v.put("expiring now", new String[] {nimbus(claims().expirationTime(new Date(NOW))), "401 invalid bearer token (expired)"});
        v.put("no exp", new String[] {nimbus(claims().expirationTime(null)), "401 invalid bearer token (expired)"});
        v.put("not valid yet", new String[] {nimbus(claims().notBeforeTime(new Date(NOW + 61_000))), "401 invalid bearer token (not valid yet)"});
        v.put("nbf within leeway", new String[] {nimbus(claims().notBeforeTime(new Date(NOW + 59_000))), "ok alice [staff]"});
        v.put("issued in the future", new String[] {nimbus(claims().issueTime(new Date(NOW + 61_000))), "401 invalid bearer token (issued in the future)"});
        v.put("iat within leeway", new String[] {nimbus(claims().issueTime(new Date(NOW + 59_000))), "ok alice [staff]"});
        v.put("numeric sub", new String[] {nimbus(claims().claim("sub", 12345)), subjectRule});
        v.put("no sub", new String[] {nimbus(claims().subject(null)), subjectRule});
        v.put("sub of 65", new String[] {nimbus(claims().subject("x".repeat(65))), subjectRule});
        v.put("sub of 64", new String[] {nimbus(claims().subject("x".repeat(64))), "ok " + "x".repeat(64) + " [staff]"});
        v.put("sub with a space", new String[] {nimbus(claims().subject("al ice")), subjectRule});
        v.put("roles not a list", new String[] {signed(json("\"roles\":\"admin\"")), unreadable});
        v.put("roles with a number", new String[] {signed(json("\"roles\":[\"staff\",1]")), unreadable});
        v.put("roles with null", new String[] {signed(json("\"roles\":[\"admin\",null]")), unreadable});
        v.put("roles null", new String[] {signed(json("\"roles\":null")), "ok alice []"});
        v.put("roles twice over", new String[] {signed(json("\"roles\":[\"staff\",\"staff\"]")), "ok alice [staff]"});
        v.put("tampered payload", new String[] {parts[0] + "." + B64.encodeToString(json("\"roles\":[\"admin\"]").getBytes(StandardCharsets.UTF_8)) + "." + parts[2], badSignature});
        v.put("tampered signature", new String[] {parts[0] + "." + parts[1] + "." + flipFirst(parts[2]), badSignature});
        v.put("alg none", new String[] {raw("{\"alg\":\"none\"}", json(""), "none", ""), unreadable});
        v.put("alg HS384", new String[] {raw("{\"alg\":\"HS384\"}", json(""), "HmacSHA384", SECRET), badSignature});
        v.put("alg RS256", new String[] {raw("{\"alg\":\"RS256\"}", json(""), "HmacSHA256", SECRET), badSignature});
        v.put("no alg", new String[] {raw("{\"typ\":\"JWT\"}", json(""), "HmacSHA256", SECRET), unreadable});
        v.put("alg twice", new String[] {raw("{\"alg\":\"none\",\"alg\":\"HS256\"}", json(""), "HmacSHA256", SECRET), unreadable});
        v.put("crit header", new String[] {raw("{\"alg\":\"HS256\",\"crit\":[\"exp\"],\"exp\":1}", json(""), "HmacSHA256", SECRET), badSignature});
        v.put("b64 false", new String[] {raw("{\"alg\":\"HS256\",\"b64\":false,\"crit\":[\"b64\"]}", json(""), "HmacSHA256", SECRET), badSignature});
        v.put("enc in header", new String[] {raw("{\"alg\":\"HS256\",\"enc\":\"A128GCM\"}", json(""), "HmacSHA256", SECRET), unreadable});
        v.put("typ null", new String[] {raw("{\"alg\":\"HS256\",\"typ\":null}", json(""), "HmacSHA256", SECRET), "ok alice [staff]"});
        v.put("typ a number", new String[] {raw("{\"alg\":\"HS256\",\"typ\":1}", json(""), "HmacSHA256", SECRET), unreadable});
        v.put("padded base64", new String[] {parts[0] + "=." + parts[1] + "." + parts[2], badSignature});
        v.put("standard base64 alphabet", new String[] {parts[0] + "." + parts[1] + "." + parts[2].replace('-', '+').replace('_', '/'), "ok alice [staff]"});
        v.put("a stray character", new String[] {parts[0] + "." + parts[1] + "." + parts[2].substring(0, 5) + "!" + parts[2].substring(5), "ok alice [staff]"});
        v.put("malformed header", new String[] {"!!!!." + parts[1] + "." + parts[2], unreadable});
        v.put("not json", new String[] {signed("not json"), unreadable});
        v.put("a json array", new String[] {signed("[1,2]"), unreadable});
        v.put("json null", new String[] {signed("null"), unreadable});
        v.put("trailing garbage", new String[] {signed(json("") + "x"), unreadable});
        v.put("two objects", new String[] {signed(json("") + json("")), unreadable});
        v.put("trailing whitespace", new String[] {signed(json("") + " \n"), "ok alice [staff]"});
        v.put("a byte order mark", new String[] {signed("\uFEFF" + json("")), "ok alice [staff]"});
        v.put("a comment", new String[] {signed(json("").replace("{", "{/*c*/")), unreadable});
        v.put("single quotes", new String[] {signed(json("'x':1")), unreadable});
        v.put("sub twice", new String[] {signed(json("\"sub\":\"admin\"")), unreadable});
        v.put("sub twice, once escaped", new String[] {signed(json("\"s\\u0075b\":\"admin\"")), unreadable});
        v.put("an escaped subject", new String[] {signed("{\"sub\":\"\\u0061lice\",\"exp\":1890000000}"), "ok alice []"});
        v.put("roles twice", new String[] {signed("{\"roles\":[],\"sub\":\"alice\",\"exp\":1890000000,\"roles\":[\"admin\"]}"), unreadable});
        v.put("nested duplicate", new String[] {signed(json("\"x\":{\"a\":1,\"a\":2}")), "ok alice [staff]"});
        v.put("NaN", new String[] {signed(json("\"x\":NaN")), unreadable});
        v.put("1e999", new String[] {signed(json("\"x\":1e999")), unreadable});
        v.put("400 digits", new String[] {signed(json("\"x\":" + "9".repeat(400))), unreadable});
        v.put("30 digits", new String[] {signed(json("\"x\":" + "9".repeat(30))), "ok alice [staff]"});
        v.put("a fraction", new String[] {signed(json("\"x\":0.5")), "ok alice [staff]"});
        v.put("exp with a fraction", new String[] {signed("{\"sub\":\"alice\",\"exp\":1890000000.9}"), "ok alice []"});
        v.put("exp as text", new String[] {signed("{\"sub\":\"alice\",\"exp\":\"1890000000\"}"), unreadable});
        v.put("exp overflowing", new String[] {signed("{\"sub\":\"alice\",\"exp\":9223372036854776}"), "401 invalid bearer token (expired)"});
        v.put("exp null", new String[] {signed("{\"sub\":\"alice\",\"exp\":null}"), "401 invalid bearer token (expired)"});
        v.put("nbf overflowing", new String[] {signed(json("\"nbf\":9223372036854775807")), "ok alice [staff]"});
        v.put("iss a number", new String[] {signed(json("\"iss\":1")), unreadable});
        v.put("aud a number", new String[] {signed(json("\"aud\":1")), unreadable});
        v.put("aud with a number", new String[] {signed(json("\"aud\":[\"a\",1]")), unreadable});
        v.put("jti an object", new String[] {signed(json("\"jti\":{}")), unreadable});
        v.put("sub an object", new String[] {signed("{\"sub\":{},\"exp\":1890000000}"), unreadable});
        v.put("sub null", new String[] {signed("{\"sub\":null,\"exp\":1890000000}"), subjectRule});
        v.put("deep nesting", new String[] {signed(json("\"x\":" + "[".repeat(300) + "]".repeat(300))), unreadable});
        v.put("some nesting", new String[] {signed(json("\"x\":" + "[".repeat(40) + "]".repeat(40))), "ok alice [staff]"});
        v.put("invalid utf-8", new String[] {signedBytes(concat(json("").replaceFirst("}$", ",\"name\":\"").getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xC3, '"', '}'})), "ok alice [staff]"});
        v.put("overlong utf-8 in sub", new String[] {signedBytes(concat("{\"exp\":1890000000,\"sub\":\"al".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xC0, (byte) 0xAE, '"', '}'})), subjectRule});
        v.put("a control character", new String[] {signed(json("\"x\":\"a\u0001b\"")), unreadable});
        v.put("empty", new String[] {"", unreadable});
        v.put("dots only", new String[] {"..", unreadable});
        v.put("no header", new String[] {raw("", json(""), "HmacSHA256", SECRET), unreadable});
        v.put("spaces around", new String[] {" " + good + " ", "ok alice [staff]"});
        v.put("huge", new String[] {nimbus(claims().claim("pad", "p".repeat(200_000))), "ok alice [staff]"});
        v.put("huge and tampered", new String[] {nimbus(claims().claim("pad", "p".repeat(200_000))).replaceFirst("\\.eyJ", ".eyK"), badSignature});
        return v;
    }

    /** A random token: mostly well signed, of plain and odd shapes, sometimes mangled afterwards. */
    private static String randomToken(Random r) {
        String header = pick(r, "{\"alg\":\"HS256\"}", "{\"alg\":\"HS256\",\"typ\":\"JWT\"}", "{\"typ\":\"JWT\",\"alg\":\"HS256\",\"kid\":\"k\"}",
                "{\"alg\":\"HS384\"}", "{\"alg\":\"none\"}", "{\"alg\":\"HS256\",\"crit\":[\"x\"]}", "{\"alg\":\"HS256\",\"x\":1}",
                "{\"alg\":\"HS256\"} ", "{\"alg\":\"HS256\",\"alg\":\"HS256\"}", "{\"alg\":1}");
        List<String> members = new ArrayList<>();
        int n = r.nextInt(7);
        for (int i = 0; i < n; i++) {
            members.add(switch (r.nextInt(9)) {
                case 0 -> "\"sub\":" + pick(r, "\"alice\"", "\"bob\"", "1", "null", "\"\"", "\"a b\"", "true", "[\"alice\"]", "1.5", "\"" + "y".repeat(65) + "\"");
                case 1 -> "\"exp\":" + pick(r, seconds(r), "null", "\"1\"", "1.5e9", "1890000000.5", "9223372036854775807", "-1");
                case 2 -> "\"nbf\":" + pick(r, seconds(r), "null", "true");
                case 3 -> "\"iat\":" + pick(r, seconds(r), "null", "{}");
                case 4 -> "\"iss\":" + pick(r, "\"" + ISSUER + "\"", "\"other\"", "null", "1");
                case 5 -> "\"aud\":" + pick(r, "\"a\"", "[\"a\",\"b\"]", "[]", "[null]", "[1]", "null", "{}");
                case 6 -> "\"roles\":" + pick(r, "[]", "[\"staff\"]", "[\"admin\",\"staff\"]", "[null]", "[1]", "\"admin\"", "null", "{}");
                case 7 -> "\"jti\":" + pick(r, "\"j\"", "null", "2");
                default -> "\"" + pick(r, "email", "scope", "x", "sub") + "\":" + pick(r, "\"v\"", "1", "1.25", "1e999",
                        "[1,[2,{\"a\":null}]]", "{\"a\":1,\"a\":2}", "true", "null", "99999999999999999999");
            });
        }
        String base = "{\"sub\":\"alice\",\"exp\":" + seconds(r);
        String payload = r.nextInt(5) == 0 ? "{" + String.join(",", members) + "}"
                : base + (members.isEmpty() ? "" : ",") + String.join(",", members) + "}";
        if (r.nextInt(20) == 0) {
            payload = payload + pick(r, " ", "x", "{}", "\n");
        }
        String alg = header.contains("HS384") ? "HmacSHA384" : "HmacSHA256";
        String token = raw(header, payload, alg, r.nextInt(30) == 0 ? SECRET + "!" : SECRET);
        return switch (r.nextInt(12)) {
            case 0 -> mangle(token, r);
            case 1 -> token + pick(r, ".", ".e30", "x", "=");
            case 2 -> token.substring(0, r.nextInt(token.length() + 1));
            default -> token;
        };
    }

    private static String mangle(String token, Random r) {
        char[] c = token.toCharArray();
        int i = r.nextInt(c.length);
        c[i] = "AZaz09-_+/=.! ~".charAt(r.nextInt(15));
        return new String(c);
    }

    private static String seconds(Random r) {
        return Long.toString(NOW / 1000 + pick(r, -7_200L, -61L, -1L, 0L, 1L, 59L, 61L, 7_200L));
    }

    @SafeVarargs
    private static <T> T pick(Random r, T... options) {
        return options[r.nextInt(options.length)];
    }

    /** The outcome as a comparable text: the principal, or the status and message. */
    private static String decide(Authenticator auth, String token) {
        try {
            Principal p = auth.verify(token);
            return "ok " + p.accountId() + " " + new TreeSet<>(p.roles());
        } catch (ApiException e) {
            return e.status() + " " + e.getMessage();
        }
    }

    private static Hs256TokenReader reader() {
        return new Hs256TokenReader(SECRET.getBytes(StandardCharsets.UTF_8));
    }

    private static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().subject("alice").issueTime(new Date(NOW - 1_000))
                .expirationTime(new Date(NOW + HOUR)).claim("roles", List.of("staff"));
    }

    /** A claims object for alice valid for an hour, with {@code more} members first, and roles [staff] unless {@code more} has roles. */
    private static String json(String more) {
        return "{" + (more.isEmpty() ? "" : more + ",") + "\"sub\":\"alice\",\"exp\":" + (NOW + HOUR) / 1000
                + (more.contains("\"roles\"") ? "" : ",\"roles\":[\"staff\"]") + "}";
    }

    private static String payload(JWTClaimsSet.Builder claims) {
        return claims.build().toString();
    }

    private static String nimbus(JWTClaimsSet.Builder claims) {
        return nimbus(new JWSHeader(JWSAlgorithm.HS256), claims);
    }

    private static String nimbus(JWSHeader header, JWTClaimsSet.Builder claims) {
        try {
            SignedJWT jwt = new SignedJWT(header, claims.build());
            jwt.sign(new MACSigner(SECRET.getBytes(StandardCharsets.UTF_8)));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A token with {@code payload} exactly as given, under {"alg":"HS256"}, signed with the secret. */
    private static String signed(String payload) {
        return signedBytes(payload.getBytes(StandardCharsets.UTF_8));
    }

    private static String signedBytes(byte[] payload) {
        return raw("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8), payload, "HmacSHA256", SECRET);
    }

    private static String raw(String header, String payload, String macAlgorithm, String secret) {
        return raw(header.getBytes(StandardCharsets.UTF_8), payload.getBytes(StandardCharsets.UTF_8), macAlgorithm, secret);
    }

    /** A token of these exact bytes, signed with {@code macAlgorithm} ("none": the signature is {@code secret} as it is). */
    private static String raw(byte[] header, byte[] payload, String macAlgorithm, String secret) {
        String input = B64.encodeToString(header) + "." + B64.encodeToString(payload);
        if (macAlgorithm.equals("none")) {
            return input + "." + secret;
        }
        try {
            Mac mac = Mac.getInstance(macAlgorithm);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), macAlgorithm));
            return input + "." + B64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String flipFirst(String part) {
        return (part.charAt(0) == 'A' ? "B" : "A") + part.substring(1);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
