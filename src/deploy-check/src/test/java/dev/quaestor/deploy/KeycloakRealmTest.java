package dev.quaestor.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The Keycloak realm (deploy/keycloak/quaestor-realm.json) can sign people in to the compliance console as the
 * server expects it (a confidential client named as the prod overlay names it, the code flow, redirect URIs that are
 * a public URL + /console, and the staff roles in the ID token the console reads them from), has the staff APIs'
 * client the prod overlay names, and has two auditors, so that what takes a second person (a hold's release) can be
 * tried.
 */
class KeycloakRealmTest {

    private static final Path REPO = Path.of(System.getProperty("quaestor.repo", "../..")).toAbsolutePath().normalize();

    private static JsonNode realm() throws Exception {
        return new ObjectMapper().readTree(REPO.resolve("deploy/keycloak/quaestor-realm.json").toFile());
    }

    private static List<JsonNode> list(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).toList();
    }

    /** Keycloak stores a description in 255 characters; a longer one stops the realm's import and Keycloak's start. */
    @Test
    void everyDescriptionFitsKeycloaksColumn() throws Exception {
        var tooLong = new java.util.ArrayList<String>();
        realm().findParents("description").forEach(n -> {
            String d = n.get("description").asText();
            if (d.length() > 255) {
                tooLong.add(d.length() + ": " + d);
            }
        });
        assertTrue(tooLong.isEmpty(), tooLong.toString());
    }

    @Test
    void theConsolesClientSignsInWithTheCodeFlowBackToConsole() throws Exception {
        JsonNode realm = realm();
        JsonNode client = list(realm.get("clients")).stream().filter(c -> c.get("clientId").asText().equals("quaestor-console"))
                .findFirst().orElseThrow(() -> new AssertionError("no quaestor-console client"));
        assertFalse(client.get("publicClient").asBoolean(), "confidential");
        assertTrue(client.get("secret").asText().length() >= 32, "32 characters or more: it also encrypts the session cookie");
        assertTrue(client.get("standardFlowEnabled").asBoolean());
        assertFalse(client.get("directAccessGrantsEnabled").asBoolean(), "people sign in at the provider, never hand over a password");
        assertFalse(client.path("attributes").has("pkce.code.challenge.method"), "the console's tenant sends no PKCE challenge");
        var redirects = list(client.get("redirectUris"));
        assertFalse(redirects.isEmpty());
        redirects.forEach(u -> assertTrue(u.asText().matches("https?://[^/*]+/console"), "exactly <public-url>/console: " + u));
        assertTrue(list(client.get("protocolMappers")).stream().anyMatch(m -> m.get("protocolMapper").asText().equals("oidc-usermodel-realm-role-mapper")
                && m.get("config").get("claim.name").asText().equals("realm_access.roles")
                && m.get("config").get("id.token.claim").asText().equals("true")), "realm roles in the ID token");
        var scoped = new ArrayList<String>();
        list(realm.get("scopeMappings")).stream().filter(s -> s.get("client").asText().equals("quaestor-console"))
                .forEach(s -> list(s.get("roles")).forEach(r -> scoped.add(r.asText())));
        assertTrue(scoped.contains("quaestor-auditor"), "the auditor role reaches the console's tokens: " + scoped);
    }

    /**
     * The staff APIs answer only the clients the prod overlay names (QUAESTOR_ADMIN_STAFF_CLIENTS), so each is a realm
     * client: for people at a terminal (public, no secret to keep on their machines, the device grant), its access
     * tokens carrying the audience quaestor and, of the realm roles, the staff's.
     */
    @Test
    void everyStaffClientTheProdOverlayNamesIsAClientForPeopleAtATerminal() throws Exception {
        Rendered prod = Rendered.render(REPO.resolve("deploy/overlays/prod"));
        var container = prod.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0);
        String named = prod.one(ConfigMap.class, container.getEnvFrom().get(0).getConfigMapRef().getName()).getData()
                .get("QUAESTOR_ADMIN_STAFF_CLIENTS");
        assertFalse(named == null || named.isBlank(), "prod names its staff clients");
        JsonNode realm = realm();
        for (String id : named.split(",")) {
            String clientId = id.strip();
            JsonNode client = list(realm.get("clients")).stream().filter(c -> c.get("clientId").asText().equals(clientId))
                    .findFirst().orElseThrow(() -> new AssertionError("the prod overlay's staff client " + clientId + " is no client of the realm"));
            assertTrue(client.get("enabled").asBoolean(), clientId);
            assertTrue(client.get("publicClient").asBoolean() && !client.has("secret"), clientId + ": public, no secret to keep");
            assertEquals("true", client.path("attributes").path("oauth2.device.authorization.grant.enabled").asText(),
                    clientId + ": people sign in with the device grant");
            assertFalse(client.get("serviceAccountsEnabled").asBoolean(), clientId + ": people, not a service account");
            assertTrue(list(client.get("defaultClientScopes")).stream().anyMatch(n -> n.asText().equals("quaestor-audience")),
                    clientId + ": its tokens carry aud=quaestor");
            var scoped = new ArrayList<String>();
            list(realm.get("scopeMappings")).stream().filter(m -> m.get("client").asText().equals(clientId))
                    .forEach(m -> list(m.get("roles")).forEach(r -> scoped.add(r.asText())));
            assertEquals(List.of("quaestor-admin", "quaestor-auditor"), scoped.stream().sorted().toList(),
                    clientId + ": the staff roles reach its tokens, and no other");
        }
    }

    @Test
    void twoAuditorsCanTryWhatTakesASecondPerson() throws Exception {
        long auditors = list(realm().get("users")).stream()
                .filter(u -> list(u.get("realmRoles")).stream().anyMatch(r -> r.asText().equals("quaestor-auditor"))).count();
        assertEquals(2, auditors);
    }
}
