package dev.quaestor.identity;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequiredOidcSettingsTest {

    private static final String ISSUER = "https://idp.example.org/realms/quaestor";

    @Test
    void productionNamesTheMissingVariable() {
        assertTrue(RequiredOidcSettings.problem(null, "quaestor", true).startsWith("QUAESTOR_OIDC_ISSUER is not set"));
        assertTrue(RequiredOidcSettings.problem(" ", "quaestor", true).startsWith("QUAESTOR_OIDC_ISSUER is not set"));
        assertTrue(RequiredOidcSettings.problem(ISSUER, null, true).startsWith("QUAESTOR_OIDC_AUDIENCE is not set"));
        assertTrue(RequiredOidcSettings.problem(ISSUER, "", true).startsWith("QUAESTOR_OIDC_AUDIENCE is not set"));
    }

    @Test
    void productionWithBothStarts() {
        assertNull(RequiredOidcSettings.problem(ISSUER, "quaestor", true));
    }

    @Test
    void anAdvertisedResourceMustBeAnAcceptedAudience() {
        String url = "https://quaestor.example.org/mcp";
        assertTrue(RequiredOidcSettings.advertisedNotAccepted(url, "quaestor").contains("not among the audiences"));
        assertNull(RequiredOidcSettings.advertisedNotAccepted(url, "quaestor, " + url));
        assertNull(RequiredOidcSettings.advertisedNotAccepted(null, "quaestor"), "not configured: nothing to compare");
    }

    @Test
    void devAndTestNeedNeither() {
        assertNull(RequiredOidcSettings.problem(null, null, false));
    }
}
