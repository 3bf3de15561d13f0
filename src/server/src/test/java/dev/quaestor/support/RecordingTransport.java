package dev.quaestor.support;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK's own transport with every notification the server sends recorded as it arrives, before
 * the client reacts to it: a test can see that a notification was (or was not) sent even where the
 * SDK's consumer would never be called (it re-reads an updated resource and drops a denied read).
 */
public final class RecordingTransport implements McpClientTransport {

    /** One notification as received. */
    public record Received(long nanoTime, String method, Object params) {
    }

    private final McpClientTransport delegate;
    private final List<Received> notifications = new CopyOnWriteArrayList<>();

    public RecordingTransport(McpClientTransport delegate) {
        this.delegate = delegate;
    }

    public List<Received> notifications() {
        return notifications;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return delegate.connect(messages -> handler.apply(messages.doOnNext(m -> {
            if (m instanceof McpSchema.JSONRPCNotification n) {
                notifications.add(new Received(System.nanoTime(), n.method(), n.params()));
            }
        })));
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        delegate.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return delegate.sendMessage(message);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return delegate.unmarshalFrom(data, type);
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }
}
