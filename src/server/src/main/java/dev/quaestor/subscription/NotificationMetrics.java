package dev.quaestor.subscription;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Notification counters. Labels are the notification type and what became of it, both small
 * fixed sets: never a URI, a session or a subject.
 */
@ApplicationScoped
public class NotificationMetrics {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

    NotificationMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** type: updated | list_changed; result: sent | suppressed (policy) | dropped (backlog) | failed | unrecorded (audit). */
    void count(String type, String result) {
        counters.computeIfAbsent(type + '\u0000' + result, k -> Counter.builder("quaestor.notifications")
                .description("Server-to-client notifications by type and result")
                .tag("type", type).tag("result", result).register(registry)).increment();
    }
}
