package dev.quaestor.identity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): tells MCP clients which authorization server
 * issues tokens for this server and for which resource. Served at the root well-known path and at
 * the path-suffixed form for /mcp.
 */
@Path("/.well-known/oauth-protected-resource")
public class ProtectedResourceMetadata {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Document(String resource, @JsonProperty("authorization_servers") List<String> authorizationServers,
            @JsonProperty("bearer_methods_supported") List<String> bearerMethodsSupported,
            @JsonProperty("scopes_supported") List<String> scopesSupported,
            @JsonProperty("resource_name") String resourceName) {
    }

    private final OAuthConfig config;

    ProtectedResourceMetadata(OAuthConfig config) {
        this.config = config;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Document root(@Context HttpServerRequest request) {
        return document(request);
    }

    @GET
    @Path("mcp")
    @Produces(MediaType.APPLICATION_JSON)
    public Document forMcp(@Context HttpServerRequest request) {
        return document(request);
    }

    Document document(HttpServerRequest request) {
        List<String> servers = config.authorizationServers().orElseGet(() -> ConfigProvider.getConfig()
                .getOptionalValue("quarkus.oidc.auth-server-url", String.class).map(List::of).orElse(List.of()));
        String resource = config.resource().orElseGet(() -> PublicUrl.of(request) + "/mcp");
        return new Document(resource, servers, List.of("header"), config.scopesSupported().or(config::requiredScopes).orElse(null), "Quaestor");
    }
}
