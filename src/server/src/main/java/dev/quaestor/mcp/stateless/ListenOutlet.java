package dev.quaestor.mcp.stateless;

import dev.quaestor.subscription.NotificationOutlet;
import dev.quaestor.subscription.StreamHolder;
import dev.quaestor.subscription.UnwrittenNotifications;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Set;

/**
 * One 2026-07-28 {@code subscriptions/listen} stream on this replica: the response to the listen POST,
 * an SSE stream whose first event is the acknowledgement, then the notifications the listen was granted
 * (each tagged with the subscription id in {@code _meta}), comment keep-alives, and, when the server ends
 * it, the listen request's result. No event ids: 2026-07-28 streams are not resumable.
 *
 * <p>The notifier may have a notification ready before the client has subscribed to the stream; it waits
 * here (at most {@link #BUFFER}) and goes out after the acknowledgement, never before it. At most
 * {@code BUFFER} events wait for a slow client; beyond that the stream fails and the client listens again.
 */
final class ListenOutlet implements NotificationOutlet {

    static final int BUFFER = 256;

    private final String key;
    private final Set<String> resourceUris;
    private final boolean listChanged;
    private final StreamHolder holder;
    private final Map<String, Object> meta;
    private final String acknowledgement;
    private final Sse sse;
    private final ArrayDeque<OutboundSseEvent> early = new ArrayDeque<>();
    private final UnwrittenNotifications<OutboundSseEvent> unwritten = new UnwrittenNotifications<>();
    private MultiEmitter<? super OutboundSseEvent> emitter;
    private boolean acknowledged;
    private boolean closed;

    ListenOutlet(String key, Set<String> resourceUris, boolean listChanged, StreamHolder holder, Map<String, Object> meta,
            String acknowledgement, Sse sse) {
        this.key = key;
        this.resourceUris = Set.copyOf(resourceUris);
        this.listChanged = listChanged;
        this.holder = holder;
        this.meta = Map.copyOf(meta);
        this.acknowledgement = acknowledgement;
        this.sse = sse;
    }

    /** The events of this stream; {@code onEnd} runs when it ends for any reason (client gone, finished, overflow). */
    Multi<OutboundSseEvent> events(Runnable onEnd) {
        return Multi.createFrom().<OutboundSseEvent>emitter(em -> {
            em.onTermination(onEnd);
            synchronized (this) {
                emitter = em;
                if (closed) {
                    em.complete();
                    return;
                }
                em.emit(message(acknowledgement));
                acknowledged = true;
                while (!early.isEmpty()) {
                    em.emit(early.poll());
                }
            }
        }, BUFFER).onItem().invoke(unwritten::remove).onTermination().invoke(unwritten::ended);
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public String sessionId() {
        return null;
    }

    @Override
    public Set<String> resourceSubscriptions() {
        return resourceUris;
    }

    @Override
    public boolean listChanged() {
        return listChanged;
    }

    @Override
    public StreamHolder holder() {
        return holder;
    }

    @Override
    public Map<String, Object> meta() {
        return meta;
    }

    @Override
    public synchronized boolean send(String jsonRpcNotification, Runnable ifNotWritten) {
        if (closed || acknowledged && emitter.isCancelled() || !acknowledged && early.size() >= BUFFER) {
            return false;
        }
        OutboundSseEvent event = message(jsonRpcNotification);
        if (!unwritten.add(event, ifNotWritten)) {
            return false;
        }
        if (acknowledged) {
            emitter.emit(event);
        } else {
            early.add(event);
        }
        return true;
    }

    synchronized void keepAlive() {
        if (!closed && acknowledged && !emitter.isCancelled()) {
            emitter.emit(sse.newEventBuilder().comment("keep-alive").build());
        }
    }

    /** Ends the stream the graceful way: the listen request's result (a complete JSON-RPC response), then the end. */
    synchronized void finish(String result) {
        if (closed) {
            return;
        }
        closed = true;
        if (emitter != null) {
            if (acknowledged && !emitter.isCancelled()) {
                emitter.emit(message(result));
            }
            emitter.complete();
        }
    }

    private OutboundSseEvent message(String json) {
        return sse.newEventBuilder().name("message").data(json).build();
    }
}
