package dev.quaestor.pipeline;

import dev.quaestor.policy.Action;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Request and decision metrics of the resource pipeline. Labels are methods, outcomes, actions
 * and verdicts only, all small fixed sets: never a URI, a subject or a rule id.
 */
@ApplicationScoped
public class PipelineMetrics {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, Timer> requests = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> decisions = new ConcurrentHashMap<>();

    PipelineMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void decided(Action action, String verdict) {
        decisions.computeIfAbsent(action.wireName() + '\u0000' + verdict, k -> Counter.builder("quaestor.policy.decisions")
                .description("Policy decisions by action and verdict")
                .tag("action", action.wireName()).tag("decision", verdict).register(registry)).increment();
    }

    void finished(String method, String outcome, long nanos) {
        requests.computeIfAbsent(method + '\u0000' + outcome, k -> Timer.builder("quaestor.requests")
                .description("Resource requests by MCP method and outcome, from decision to outcome record")
                .tag("method", method).tag("outcome", outcome).register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }
}
