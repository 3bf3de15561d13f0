package dev.quaestor.bench.peer;

import io.quarkiverse.mcp.server.Resource;
import io.quarkiverse.mcp.server.TextResourceContents;
import io.smallrye.common.annotation.Blocking;
import jakarta.annotation.PostConstruct;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one file the load harness reads, from disk on every request: as an MCP resource (on a worker thread, as
 * Quaestor's provider reads) and as a bare REST GET of the same bytes. The bare GET does the file work of Quaestor's
 * bearer-only comparison endpoint (a confinement check by lstat and realpath, then the file handed to the HTTP layer to
 * send), so that the two differ by the bearer check alone.
 */
@Path("/bare")
public class PeerFile {

    static final String URI = "file:///bench/one-kib.txt";

    @ConfigProperty(name = "peer.file")
    java.nio.file.Path file;

    @Resource(uri = URI, mimeType = "text/plain", description = "The load harness's 1 KiB file")
    @Blocking
    TextResourceContents oneKib() {
        return TextResourceContents.create(URI, new String(bytes(), StandardCharsets.UTF_8));
    }

    /** The file under its folder's real path, as the comparison endpoint resolves under its real root. */
    private java.nio.file.Path underRealFolder;

    @PostConstruct
    void resolveFolder() throws IOException {
        underRealFolder = file.toAbsolutePath().getParent().toRealPath().resolve(file.getFileName());
    }

    @GET
    @Path("one-kib.txt")
    public Response get() throws IOException {
        java.nio.file.Path f = underRealFolder.normalize();
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || !f.toRealPath().equals(f)) {
            throw new NotFoundException();
        }
        return Response.ok(f.toFile(), "application/octet-stream").build();
    }

    private byte[] bytes() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
