package dev.quaestor.support;

import dev.quaestor.policy.PolicyStore;
import io.quarkus.arc.Arc;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The policy set the server under test has active, read from its {@link PolicyStore} (inside a {@code @QuarkusTest}):
 * {@code revision}, {@code files} (comma-separated) and {@code state} ({@code ok}, or {@code degraded} while a
 * refused set is waiting to be fixed). Tests that wait for a reload read it here: readiness no longer tells anyone.
 */
public final class ActivePolicy {

    private ActivePolicy() {
    }

    public static Map<String, Object> state() {
        PolicyStore store = Arc.container().instance(PolicyStore.class).get();
        var set = store.current();
        var out = new LinkedHashMap<String, Object>();
        out.put("revision", set.revision());
        out.put("files", String.join(",", set.files()));
        out.put("state", store.refusal() == null ? "ok" : "degraded");
        return out;
    }
}
