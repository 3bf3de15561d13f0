package dev.quaestor.console;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Console pages are not cached, not framed, and load nothing from anywhere: no script at all, styles only
 * inline, forms only to the console itself.
 */
@Provider
public class ConsoleHeaders implements ContainerResponseFilter {

    static final String POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String path = request.getUriInfo().getPath();
        if (path.equals("/console") || path.startsWith("/console/")) {
            var h = response.getHeaders();
            h.putSingle("Content-Security-Policy", POLICY);
            h.putSingle("Cache-Control", "no-store");
            h.putSingle("X-Content-Type-Options", "nosniff");
            h.putSingle("Referrer-Policy", "no-referrer");
            h.putSingle("X-Frame-Options", "DENY");
        }
    }
}
