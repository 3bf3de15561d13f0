package dev.quaestor.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One kustomization rendered by {@code kubectl kustomize} and parsed into fabric8 model objects. Parsing is
 * strict: a field the Kubernetes model does not know (a typo, a field at the wrong level) ends up in a model
 * object's {@code additionalProperties}, and {@link #parse} refuses it with its path.
 */
record Rendered(Path dir, List<HasMetadata> objects) {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private static final Map<Path, Rendered> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    /** Renders once per directory and test run. */
    static synchronized Rendered render(Path dir) throws IOException, InterruptedException {
        Rendered r = CACHE.get(dir);
        if (r == null) {
            r = renderNow(dir);
            CACHE.put(dir, r);
        }
        return r;
    }

    private static Rendered renderNow(Path dir) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("kubectl", "kustomize", dir.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("kubectl is needed to render deploy/ (kubectl kustomize) and was not found on "
                    + "the PATH: install kubectl 1.27+ (docs/operations.md, \"Tests\")", e);
        }
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("kubectl kustomize " + dir + " failed:\n" + new String(out, StandardCharsets.UTF_8));
        }
        return new Rendered(dir, parse(new String(out, StandardCharsets.UTF_8)));
    }

    static List<HasMetadata> parse(String yaml) {
        var objects = new ArrayList<HasMetadata>();
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            if (doc.isBlank()) {
                continue;
            }
            HasMetadata o = SERIALIZATION.unmarshal(doc);
            if (!(o instanceof GenericKubernetesResource)) {
                var unknown = new ArrayList<String>();
                collectUnknown(o, o.getKind() + "/" + o.getMetadata().getName(), unknown, new IdentityHashMap<>());
                if (!unknown.isEmpty()) {
                    throw new IllegalArgumentException("fields unknown to the Kubernetes model: " + unknown);
                }
            }
            objects.add(o);
        }
        return objects;
    }

    /** Walks the model object graph through its getters and reports every non-empty additionalProperties. */
    private static void collectUnknown(Object o, String path, List<String> unknown, Map<Object, Boolean> seen) {
        if (o == null || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) {
                collectUnknown(e, path + "[" + i++ + "]", unknown, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> collectUnknown(v, path + "." + k, unknown, seen));
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method getter : o.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getName().equals("getClass")) {
                continue;
            }
            Object value;
            try {
                value = getter.invoke(o);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    unknown.add(path + ": " + extra.keySet());
                }
                continue;
            }
            String field = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
            collectUnknown(value, path + "." + field, unknown, seen);
        }
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type, String name) {
        return find(type, name).orElseThrow(() -> new AssertionError(dir + ": no " + type.getSimpleName() + " named " + name));
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst();
    }
}
