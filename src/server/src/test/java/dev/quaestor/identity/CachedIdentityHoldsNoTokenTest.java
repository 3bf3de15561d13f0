package dev.quaestor.identity;

import dev.quaestor.support.TestIssuer;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verified-token cache keeps a token's hash and what the server reads from the token (its claims, roles and the
 * caller they map to), never the token: a heap dump of a busy server holds no bearer token that could be replayed.
 */
@QuarkusTest
class CachedIdentityHoldsNoTokenTest {

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @Inject
    VerifiedTokenCache cache;
    @Inject
    IdentityMapper mapper;

    @Test
    void theCachedIdentityHoldsNeitherTheTokenNorItsCredential() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        given().contentType("application/json").accept("application/json, text/event-stream")
                .header("Authorization", "Bearer " + token).body(INIT).when().post("/mcp").then().statusCode(200);
        SecurityIdentity stored = cache.lookup(token, OidcUtils.DEFAULT_TENANT_ID);
        assertNotNull(stored, "the verified token is cached; " + cache.stats());

        assertNull(stored.getCredential(AccessTokenCredential.class), "no bearer credential is kept");
        assertTrue(stored.getCredentials().isEmpty(), "no credential at all: " + stored.getCredentials());
        assertFalse(String.valueOf(stored.getPrincipal()).contains(token), "the principal's string form");
        JsonWebToken claims = (JsonWebToken) stored.getPrincipal();
        assertNull(claims.getRawToken(), "the claims are kept without the token they came in");
        for (String name : claims.getClaimNames()) {
            assertFalse(String.valueOf((Object) claims.getClaim(name)).contains(token), "claim " + name);
        }
        stored.getAttributes().forEach((name, value) ->
                assertFalse(String.valueOf(value).contains(token), "attribute " + name));
        List<String> paths = new ArrayList<>();
        find(stored, token, "identity", 0, new IdentityHashMap<>(), paths);
        assertEquals(List.of(), paths, "nothing the cached identity refers to holds the token");

        // What the server reads from the token is all there.
        assertEquals("alice", claims.getSubject());
        assertEquals("alice", ((Identity) stored.getAttribute(IdentityMapper.MAPPED)).subject());
        assertTrue(claims.getExpirationTime() > 0, "its expiry");
        assertNotNull(claims.getClaim("jti"), "its id");
        assertEquals(OidcUtils.DEFAULT_TENANT_ID, stored.getAttribute(VerifiedTokenCache.TENANT));
        String payload = new String(java.util.Base64.getUrlDecoder().decode(token.split("\\.")[1]),
                java.nio.charset.StandardCharsets.UTF_8);
        var m = java.util.regex.Pattern.compile("\"jti\":\"([^\"]+)\"").matcher(payload);
        assertTrue(m.find(), payload);
        assertEquals("jti:" + m.group(1), mapper.correlationId(stored), "what follows the client across requests");
        assertNotNull(mapper.expiry(stored));
        assertTrue(AuthContext.of(stored).startsWith("acr="), "how the caller signed in");
    }

    /**
     * Walks what {@code o} refers to (fields, collections, maps, arrays; JDK objects only through their public
     * collection interfaces) and notes the path of every string that holds {@code token}.
     */
    private static void find(Object o, String token, String path, int depth, Map<Object, Boolean> seen, List<String> found)
            throws IllegalAccessException {
        if (o == null || depth > 12 || o instanceof Class<?> || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof CharSequence s) {
            if (s.toString().contains(token)) {
                found.add(path);
            }
            return;
        }
        if (o instanceof char[] chars) {
            if (new String(chars).contains(token)) {
                found.add(path);
            }
            return;
        }
        if (o instanceof byte[] bytes) {
            if (new String(bytes, java.nio.charset.StandardCharsets.UTF_8).contains(token)) {
                found.add(path);
            }
            return;
        }
        if (o.getClass().isArray()) {
            if (!o.getClass().getComponentType().isPrimitive()) {
                for (int i = 0; i < Array.getLength(o); i++) {
                    find(Array.get(o, i), token, path + "[" + i + "]", depth + 1, seen, found);
                }
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (var e : m.entrySet()) {
                find(e.getKey(), token, path + ".key", depth + 1, seen, found);
                find(e.getValue(), token, path + "[" + e.getKey() + "]", depth + 1, seen, found);
            }
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) {
                find(e, token, path + "[" + i++ + "]", depth + 1, seen, found);
            }
            return;
        }
        if (o instanceof Optional<?> opt) {
            find(opt.orElse(null), token, path + ".get", depth + 1, seen, found);
            return;
        }
        String type = o.getClass().getName();
        if (type.startsWith("java.") || type.startsWith("javax.") || type.startsWith("jdk.") || type.startsWith("sun.")) {
            return;
        }
        for (Class<?> k = o.getClass(); k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive() || !f.trySetAccessible()) {
                    continue;
                }
                find(f.get(o), token, path + "." + f.getName(), depth + 1, seen, found);
            }
        }
    }
}
