package dev.quaestor.pipeline;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * OpenTelemetry spans for the pipeline's stages (policy, audit, rate limit, provider), children of
 * the HTTP request's span. Tracing is off unless configured ({@code quarkus.otel.sdk.disabled});
 * then, as for any request that is not sampled, a stage costs one lookup of the current span.
 * Spans carry the stage and the MCP method, never URIs, subjects or content.
 */
@ApplicationScoped
public class StageSpans {

    private final Tracer tracer;

    StageSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    /** A stage that records nothing: tracing is off, or this request is not sampled. */
    private static final Stage UNTRACED = new Stage(null, null);

    /** A started stage; close it to end the span. */
    public Stage start(String stage, String method) {
        // With the SDK disabled (the default) the tracer still builds spans: ids, attribute maps, a
        // context switch per stage, a few hundred bytes each, on every request. A stage span is only
        // exported under a sampled request span, so without one there is nothing to build.
        if (!Span.current().getSpanContext().isSampled()) {
            return UNTRACED;
        }
        Span span = tracer.spanBuilder("quaestor." + stage).setAttribute("mcp.method", method).startSpan();
        return new Stage(span, span.makeCurrent());
    }

    public record Stage(Span span, Scope scope) implements AutoCloseable {
        public void outcome(String outcome) {
            attribute("quaestor.outcome", outcome);
        }

        public void attribute(String key, String value) {
            if (span != null) {
                span.setAttribute(key, value);
            }
        }

        @Override
        public void close() {
            if (span != null) {
                scope.close();
                span.end();
            }
        }
    }
}
