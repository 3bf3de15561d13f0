package dev.quaestor.pipeline;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stage spans are built under a sampled request span, and not at all without one. */
class StageSpansTest {

    private final List<SpanData> exported = new CopyOnWriteArrayList<>();
    private final SpanExporter collector = new SpanExporter() {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            exported.addAll(spans);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    };
    private SdkTracerProvider provider;

    @AfterEach
    void close() {
        if (provider != null) {
            provider.close();
        }
    }

    private StageSpans spans(Sampler sampler) {
        close();
        provider = SdkTracerProvider.builder().setSampler(sampler).addSpanProcessor(SimpleSpanProcessor.create(collector)).build();
        return new StageSpans(provider.get("test"));
    }

    @Test
    void underASampledRequestSpanEachStageIsAChildSpanWithItsOutcome() {
        var stages = spans(Sampler.alwaysOn());
        Span request = provider.get("test").spanBuilder("POST /mcp").startSpan();
        try (var scope = request.makeCurrent()) {
            try (var stage = stages.start("policy", "resources/read")) {
                stage.attribute("quaestor.mount", "docs");
                stage.outcome("allow");
            }
        } finally {
            request.end();
        }
        SpanData policy = exported.stream().filter(s -> s.getName().equals("quaestor.policy")).findFirst().orElseThrow();
        assertEquals(request.getSpanContext().getSpanId(), policy.getParentSpanId());
        assertEquals("allow", policy.getAttributes().get(AttributeKey.stringKey("quaestor.outcome")));
        assertEquals("resources/read", policy.getAttributes().get(AttributeKey.stringKey("mcp.method")));
        assertEquals("docs", policy.getAttributes().get(AttributeKey.stringKey("quaestor.mount")));
        assertEquals(2, exported.size());
    }

    @Test
    void withoutASampledRequestSpanNothingIsBuilt() {
        var stages = spans(Sampler.alwaysOn());
        try (var stage = stages.start("policy", "resources/read")) {
            stage.outcome("allow");
            stage.attribute("quaestor.mount", "docs");
            assertNull(stage.span(), "no request span: no stage span");
            assertTrue(!Span.current().getSpanContext().isValid());
        }
        var off = spans(Sampler.alwaysOff());
        Span unsampled = provider.get("test").spanBuilder("POST /mcp").startSpan();
        try (var scope = unsampled.makeCurrent(); var stage = off.start("audit.decision", "resources/read")) {
            assertNull(stage.span(), "unsampled request: no stage span");
        }
        unsampled.end();
        assertTrue(exported.isEmpty(), "nothing exported: " + exported);
    }
}
