package dev.quaestor.pipeline;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * OpenTelemetry spans for the pipeline's stages (policy, audit, rate limit, provider), children of
 * the HTTP request's span. Tracing is off unless configured ({@code quarkus.otel.sdk.disabled});
 * then the tracer is a no-op and a stage costs two virtual calls. Spans carry the stage and the
 * MCP method, never URIs, subjects or content.
 */
@ApplicationScoped
public class StageSpans {

    private final Tracer tracer;

    StageSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    /** A started stage; close it to end the span. */
    public Stage start(String stage, String method) {
        Span span = tracer.spanBuilder("quaestor." + stage).setAttribute("mcp.method", method).startSpan();
        return new Stage(span, span.makeCurrent());
    }

    public record Stage(Span span, Scope scope) implements AutoCloseable {
        public void outcome(String outcome) {
            span.setAttribute("quaestor.outcome", outcome);
        }

        @Override
        public void close() {
            scope.close();
            span.end();
        }
    }
}
