package dev.quaestor.mcp.transport;

import dev.quaestor.mcp.stateless.RequestHeaders;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.net.URI;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Sends a POST to /mcp whose {@code Mcp-Method} header says {@code subscriptions/listen} to
 * {@link McpEndpoint#listen}, whose answer is an open SSE stream rather than one JSON response. The
 * header is the routing key proxies see too (2026-07-28 requires it on every POST); the method checks that
 * the body agrees before it opens anything, and answers any other body as an ordinary POST.
 */
public class ListenRouting {

    static final String PATH = "subscriptions-listen";

    @ServerRequestFilter(preMatching = true)
    public void route(ContainerRequestContext request) {
        if (!"POST".equals(request.getMethod())) {
            return;
        }
        String path = request.getUriInfo().getPath();
        if (!"/mcp".equals(path) && !"mcp".equals(path)) {
            return;
        }
        String method = RequestHeaders.trim(request.getHeaderString(RequestHeaders.METHOD));
        if ("subscriptions/listen".equals(method)) {
            URI base = request.getUriInfo().getBaseUri();
            request.setRequestUri(base, base.resolve("mcp/" + PATH));
        }
    }
}
