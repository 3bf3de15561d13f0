package dev.quaestor.mcp.session;

import dev.quaestor.subscription.NotificationOutlet;
import dev.quaestor.subscription.StreamHolder;
import dev.quaestor.subscription.UnwrittenNotifications;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.util.Map;
import java.util.Set;

/**
 * One session's GET stream on this replica: JSON-RPC notifications as SSE {@code message} events
 * and keep-alive comments. At most {@link #BUFFER} events wait for a slow client; beyond that the
 * stream fails and the client reconnects, so a stalled reader never holds unbounded memory. A notification still
 * waiting when the stream ends runs what {@link #send} was given for it ({@link UnwrittenNotifications}).
 */
final class SseOutlet implements NotificationOutlet {

    static final int BUFFER = 256;

    private final String sessionId;
    private final StreamHolder holder;
    private final Sse sse;
    private volatile MultiEmitter<? super OutboundSseEvent> emitter;
    private volatile boolean closed;
    private final UnwrittenNotifications<OutboundSseEvent> unwritten = new UnwrittenNotifications<>();

    SseOutlet(String sessionId, StreamHolder holder, Sse sse) {
        this.sessionId = sessionId;
        this.holder = holder;
        this.sse = sse;
    }

    /** The events of this stream; {@code onEnd} runs when it ends for any reason (client gone, closed, overflow). */
    Multi<OutboundSseEvent> events(Runnable onEnd) {
        return Multi.createFrom().<OutboundSseEvent>emitter(em -> {
            em.onTermination(onEnd);
            emitter = em;
            if (closed) {
                em.complete();
            } else {
                // Written at once, so the client sees the stream open before any notification is due.
                em.emit(sse.newEventBuilder().comment("stream open").build());
            }
        }, BUFFER).onItem().invoke(unwritten::remove).onTermination().invoke(unwritten::ended);
    }

    /** One stream per session on this replica: a newer one takes the older one's key. */
    @Override
    public String key() {
        return "session:" + sessionId;
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    @Override
    public Set<String> resourceSubscriptions() {
        return null;
    }

    /** A session's stream gets list changes (the session's capability says so); policy decides each. */
    @Override
    public boolean listChanged() {
        return true;
    }

    @Override
    public StreamHolder holder() {
        return holder;
    }

    @Override
    public Map<String, Object> meta() {
        return Map.of();
    }

    @Override
    public boolean send(String jsonRpcNotification, Runnable ifNotWritten) {
        OutboundSseEvent event = sse.newEventBuilder().name("message").data(jsonRpcNotification).build();
        if (!unwritten.add(event, ifNotWritten)) {
            return false;
        }
        if (!emit(event)) {
            unwritten.remove(event);
            return false;
        }
        return true;
    }

    void keepAlive() {
        emit(sse.newEventBuilder().comment("keep-alive").build());
    }

    private boolean emit(OutboundSseEvent event) {
        var em = emitter;
        if (closed || em == null || em.isCancelled()) {
            return false;
        }
        em.emit(event);
        return true;
    }

    /** Ends the stream (the session ended, a newer stream replaced it, or its token expired). */
    void close() {
        closed = true;
        var em = emitter;
        if (em != null) {
            em.complete();
        }
    }
}
