package dev.quaestor.http;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

/** Sets every connection's send buffer to {@code quaestor.streams.send-buffer}, if given ({@link StreamConfig#sendBuffer}). */
@ApplicationScoped
public class SendBuffer implements HttpServerOptionsCustomizer {

    private final StreamConfig config;

    SendBuffer(StreamConfig config) {
        this.config = config;
    }

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        config.sendBuffer().ifPresent(options::setSendBufferSize);
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        customizeHttpServer(options);
    }
}
