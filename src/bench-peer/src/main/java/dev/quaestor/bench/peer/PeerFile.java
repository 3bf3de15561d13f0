package dev.quaestor.bench.peer;

import io.quarkiverse.mcp.server.Resource;
import io.quarkiverse.mcp.server.TextResourceContents;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one file the load harness reads, from disk on every request: as an MCP resource (on a worker thread, as
 * Quaestor's provider reads) and as a bare REST GET of the same bytes.
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

    @GET
    @Path("one-kib.txt")
    @Produces("text/plain")
    public byte[] get() {
        return bytes();
    }

    private byte[] bytes() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
