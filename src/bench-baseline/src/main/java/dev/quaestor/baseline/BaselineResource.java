package dev.quaestor.baseline;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;

/**
 * What the benchmarks compare the governed path with: the same bytes over the same server and the
 * same bearer-token check, with no policy, audit, rate limit or MCP framing. Off by default
 * ({@code quaestor.baseline.enabled}); when off, every path is 404. Files are streamed by the HTTP
 * layer, never loaded into memory.
 */
@Path("/baseline")
public class BaselineResource {

    private final BaselineConfig config;
    private final java.nio.file.Path root;

    public BaselineResource(BaselineConfig config) throws IOException {
        this.config = config;
        this.root = config.enabled() && config.root().isPresent()
                ? java.nio.file.Path.of(config.root().get()).toRealPath()
                : null;
    }

    @GET
    @Path("{path: .+}")
    public Response get(@PathParam("path") String path) throws IOException {
        if (root == null || path.indexOf('\0') >= 0 || path.indexOf('\\') >= 0) {
            throw new NotFoundException();
        }
        java.nio.file.Path file = root.resolve(path).normalize();
        // Same confinement as the filesystem provider: no way out of the root, no symlinks.
        if (!file.startsWith(root) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                || !file.toRealPath().equals(file)) {
            throw new NotFoundException();
        }
        return Response.ok(file.toFile(), "application/octet-stream").build();
    }
}
