package dev.quaestor.mcp.stateless;

import dev.quaestor.mcp.wire.Answer;
import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.sse.OutboundSseEvent;

/** What a checked {@code subscriptions/listen} became: an open stream, or the answer refusing it. */
public sealed interface Listen {

    record Opened(Multi<OutboundSseEvent> events) implements Listen {
    }

    /** Answered as ordinary JSON, before any stream opens. */
    record Refused(Answer answer) implements Listen {
    }
}
