package dev.quaestor.identity;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The token is taken from the header exactly as quarkus-oidc takes it, so that the cache is asked about the same string. */
class CachedBearerAuthenticationTest {

    @Test
    void readsTheTokenAsQuarkusOidcDoes() {
        assertEquals("abc.def.ghi", CachedBearerAuthentication.bearerToken("Bearer abc.def.ghi", "Bearer"));
        assertEquals("abc", CachedBearerAuthentication.bearerToken("bEARER abc", "Bearer"), "the scheme's case does not matter");
        assertEquals(" abc", CachedBearerAuthentication.bearerToken("Bearer  abc", "Bearer"), "everything after the first space");
        assertEquals("", CachedBearerAuthentication.bearerToken("Bearer ", "Bearer"));
        assertEquals("a b", CachedBearerAuthentication.bearerToken("Bearer a b", "Bearer"));
        assertNull(CachedBearerAuthentication.bearerToken(null, "Bearer"));
        assertNull(CachedBearerAuthentication.bearerToken("Bearer", "Bearer"), "no space, no token");
        assertNull(CachedBearerAuthentication.bearerToken(" Bearer abc", "Bearer"));
        assertNull(CachedBearerAuthentication.bearerToken("Basic abc", "Bearer"));
        assertNull(CachedBearerAuthentication.bearerToken("Bearers abc", "Bearer"));
        assertNull(CachedBearerAuthentication.bearerToken("Beare abc", "Bearer"));
        assertNull(CachedBearerAuthentication.bearerToken("DPoP abc", "Bearer"));
    }
}
