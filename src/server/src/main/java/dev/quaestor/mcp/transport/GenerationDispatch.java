package dev.quaestor.mcp.transport;

import dev.quaestor.mcp.session.SessionRpc;
import dev.quaestor.mcp.stateless.StatelessRpc;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.Generation;
import dev.quaestor.mcp.wire.ProtocolRevision;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;

/** Hands a POST that passed the door ({@link PostIntake}) to the protocol generation that answers it. */
@ApplicationScoped
class GenerationDispatch {

    private final Inbounds inbounds;
    private final StatelessRpc stateless;
    private final SessionRpc sessions;

    GenerationDispatch(Inbounds inbounds, StatelessRpc stateless, SessionRpc sessions) {
        this.inbounds = inbounds;
        this.stateless = stateless;
        this.sessions = sessions;
    }

    /** A parsed POST's answer, from the generation its route names. */
    Answer answer(HttpHeaders headers, PostIntake.Parsed p, GenerationRouter.Route route, String requestId) {
        if (route.generation() == Generation.SESSION && GenerationRouter.mixesGenerations(p.root())) {
            return sessions.mixedBatch(inbounds.session(headers, p, requestId));
        }
        return route.generation() == Generation.STATELESS
                ? stateless.handle(p.root(), inbounds.stateless(headers, p, route.revision(), requestId))
                : sessions.post(p.root(), inbounds.session(headers, p, requestId));
    }

    /**
     * A POST whose body is not one JSON value: -32700 in the shape of the generation its {@code MCP-Protocol-Version}
     * header names (the body names none), recorded by that generation.
     */
    Answer unparsed(HttpHeaders headers, PostIntake.Unparsed u, String requestId) {
        return u.version().generation() == Generation.STATELESS
                ? stateless.unparsed(u.problem(), inbounds.stateless(headers, u, ProtocolRevision.UNVERSIONED, requestId))
                : sessions.unparsed(u.problem(), inbounds.session(headers, u, requestId));
    }
}
