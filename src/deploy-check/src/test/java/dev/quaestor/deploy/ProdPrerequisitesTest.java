package dev.quaestor.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the prod overlay expects of the operator, and what docs/operations.md's step by step gives it: every Secret and
 * ConfigMap a prod workload references and prod does not render is created there; the image is pinned by digest; what
 * three replicas must share is required; the console is on, with its client secret from a Secret.
 */
class ProdPrerequisitesTest {

    private static final Path REPO = Path.of(System.getProperty("quaestor.repo", "../..")).toAbsolutePath().normalize();
    private static final Path PROD = REPO.resolve("deploy/overlays/prod");
    private static final Pattern CREATED = Pattern.compile("kubectl\\s+-n\\s+quaestor\\s+create\\s+(secret\\s+generic|configmap)\\s+([a-z0-9-]+)");

    private static List<PodSpec> workloads(Rendered r) {
        var pods = new ArrayList<PodSpec>();
        r.all(Deployment.class).forEach(d -> pods.add(d.getSpec().getTemplate().getSpec()));
        r.all(Job.class).forEach(j -> pods.add(j.getSpec().getTemplate().getSpec()));
        r.all(CronJob.class).forEach(c -> pods.add(c.getSpec().getJobTemplate().getSpec().getTemplate().getSpec()));
        return pods;
    }

    /** "secret NAME" and "configmap NAME" for every Secret and ConfigMap the pods read, from env or volumes. */
    private static Set<String> referenced(Rendered r) {
        var names = new TreeSet<String>();
        for (PodSpec pod : workloads(r)) {
            for (Container c : pod.getContainers()) {
                for (EnvVar e : c.getEnv()) {
                    if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                        names.add("secret " + e.getValueFrom().getSecretKeyRef().getName());
                    }
                    if (e.getValueFrom() != null && e.getValueFrom().getConfigMapKeyRef() != null) {
                        names.add("configmap " + e.getValueFrom().getConfigMapKeyRef().getName());
                    }
                }
                c.getEnvFrom().forEach(f -> {
                    if (f.getSecretRef() != null) {
                        names.add("secret " + f.getSecretRef().getName());
                    }
                    if (f.getConfigMapRef() != null) {
                        names.add("configmap " + f.getConfigMapRef().getName());
                    }
                });
            }
            pod.getVolumes().forEach(v -> {
                if (v.getSecret() != null) {
                    names.add("secret " + v.getSecret().getSecretName());
                }
                if (v.getConfigMap() != null) {
                    names.add("configmap " + v.getConfigMap().getName());
                }
            });
        }
        return names;
    }

    /** The "Step by step" section of docs/operations.md. */
    private static String stepByStep() throws Exception {
        String ops = Files.readString(REPO.resolve("docs/operations.md"));
        int from = ops.indexOf("### Step by step");
        assertTrue(from >= 0, "docs/operations.md has its step by step");
        int to = ops.indexOf("\n### ", from + 1);
        return ops.substring(from, to < 0 ? ops.length() : to);
    }

    @Test
    void theStepByStepCreatesEverySecretAndConfigMapProdExpects() throws Exception {
        Rendered r = Rendered.render(PROD);
        var expected = referenced(r);
        r.all(ConfigMap.class).forEach(m -> expected.remove("configmap " + m.getMetadata().getName()));
        var created = new TreeSet<String>();
        Matcher m = CREATED.matcher(stepByStep());
        while (m.find()) {
            created.add((m.group(1).startsWith("secret") ? "secret " : "configmap ") + m.group(2));
        }
        var missing = new TreeSet<>(expected);
        missing.removeAll(created);
        missing.remove("secret quaestor-audit-hmac"); // optional: only with hashed fields, shown commented out
        assertEquals(Set.of(), missing, "referenced by prod's workloads, never created in docs/operations.md's step by "
                + "step (created there: " + created + ")");
        assertTrue(expected.contains("configmap quaestor-audit-verifier-key"), "the retention job's pinned key: " + expected);
    }

    @Test
    void prodPinsEveryImageByDigest() throws Exception {
        Rendered r = Rendered.render(PROD);
        for (PodSpec pod : workloads(r)) {
            for (Container c : pod.getContainers()) {
                assertTrue(c.getImage().matches("[^@]+@sha256:[0-9a-f]{64}"), "pinned by digest: " + c.getImage());
            }
        }
        assertTrue(Files.readString(REPO.resolve("docs/operations.md")).contains("pin the image (a digest)"));
    }

    @Test
    void prodRequiresTheListCursorSecretItsReplicasShare() throws Exception {
        Deployment d = Rendered.render(PROD).one(Deployment.class, "quaestor");
        assertTrue(d.getSpec().getReplicas() > 1);
        SecretKeySelector ref = secretRef(d.getSpec().getTemplate().getSpec().getContainers().get(0), "QUAESTOR_LIST_CURSOR_SECRET");
        assertEquals("quaestor-list-cursor", ref.getName());
        assertNotEquals(Boolean.TRUE, ref.getOptional(), "several replicas need the same cursor key: required");
    }

    @Test
    void prodTurnsTheConsoleOnWithItsClientSecretFromASecret() throws Exception {
        Rendered r = Rendered.render(PROD);
        Container c = r.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> config = r.one(ConfigMap.class, c.getEnvFrom().get(0).getConfigMapRef().getName()).getData();
        assertEquals("true", config.get("QUAESTOR_CONSOLE_ENABLED"));
        assertEquals("quaestor-console", config.get("QUAESTOR_CONSOLE_CLIENT_ID"));
        assertEquals("quaestor-audit-cli", config.get("QUAESTOR_ADMIN_STAFF_CLIENTS"), "the staff APIs for the audit tooling's client only");
        assertTrue(config.get("QUAESTOR_HTTP_PUBLIC_URL").startsWith("https://"), "the redirect URI's base");
        SecretKeySelector ref = secretRef(c, "QUAESTOR_CONSOLE_CLIENT_SECRET");
        assertEquals("quaestor-console", ref.getName());
        assertNotEquals(Boolean.TRUE, ref.getOptional(), "the console on without its secret cannot sign anyone in");
        assertTrue(c.getEnv().stream().noneMatch(e -> e.getName().startsWith("QUAESTOR_CONSOLE_CLIENT_SECRET") && e.getValue() != null));
    }

    /** The staff APIs answer only the clients prod names: the step by step says that staff tools must use them. */
    @Test
    void theStepByStepNamesTheStaffClientsProdAllows() throws Exception {
        Rendered r = Rendered.render(PROD);
        Container c = r.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0);
        String named = r.one(ConfigMap.class, c.getEnvFrom().get(0).getConfigMapRef().getName()).getData().get("QUAESTOR_ADMIN_STAFF_CLIENTS");
        String steps = stepByStep();
        assertTrue(steps.contains("QUAESTOR_ADMIN_STAFF_CLIENTS"), "the step by step names the setting");
        for (String client : named.split(",")) {
            assertTrue(steps.contains("`" + client.strip() + "`"), "the step by step names the staff client " + client.strip());
        }
    }

    private static SecretKeySelector secretRef(Container c, String variable) {
        EnvVar e = c.getEnv().stream().filter(v -> v.getName().equals(variable)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + variable));
        assertTrue(e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null, variable + " from a Secret");
        return e.getValueFrom().getSecretKeyRef();
    }
}
