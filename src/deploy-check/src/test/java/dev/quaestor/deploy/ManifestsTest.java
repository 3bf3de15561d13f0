package dev.quaestor.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every overlay under deploy/overlays renders, every object it renders is valid for the Kubernetes model, and the
 * security review's points hold on what would actually be applied (not on the base alone).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManifestsTest {

    private static final Path REPO = Path.of(System.getProperty("quaestor.repo", "../..")).toAbsolutePath().normalize();
    private static final Path OVERLAYS = REPO.resolve("deploy/overlays");
    private static final Map<String, String> PROBES = Map.of("startup", "/q/health/started", "readiness", "/q/health/ready",
            "liveness", "/q/health/live");
    /** PostgreSQL, Redis (plain, TLS), the IdP and the time-stamping authority (HTTPS) and DNS: nothing else may leave the pod. */
    private static final Set<Integer> EGRESS_PORTS = Set.of(5432, 6379, 6380, 443, 53);
    private static final int MCP_PORT = 8080;
    /** The ConfigMap holding the CA certificate of PostgreSQL's server certificate, and its key. */
    private static final String DB_CA = "quaestor-db-ca";
    private static final String DB_CA_KEY = "ca.crt";

    Stream<Path> overlays() throws IOException {
        try (var dirs = Files.list(OVERLAYS)) {
            List<Path> found = dirs.filter(d -> Files.exists(d.resolve("kustomization.yaml"))).sorted().toList();
            assertTrue(found.size() >= 2, "deploy/overlays has dev and prod: " + found);
            return found.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void deploymentIsHardenedAndOperable(Path overlay) throws Exception {
        Rendered r = Rendered.render(overlay);
        Deployment d = r.one(Deployment.class, "quaestor");
        assertTrue(d.getSpec().getReplicas() >= 2, "at least 2 replicas");
        assertEquals("RollingUpdate", d.getSpec().getStrategy().getType());
        assertEquals(0, d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal(), "maxUnavailable 0");
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        assertPodHardened(r, pod);

        Container c = pod.getContainers().get(0);
        assertEquals(MCP_PORT, c.getPorts().get(0).getContainerPort());
        assertProbe(c.getStartupProbe(), "startup");
        assertProbe(c.getReadinessProbe(), "readiness");
        assertProbe(c.getLivenessProbe(), "liveness");

        // Shutdown: the grace period covers the pre-shutdown delay plus the in-flight timeout the server is given.
        Map<String, String> config = configOf(r, c);
        long shutdown = Duration.parse("PT" + config.get("QUAESTOR_SHUTDOWN_DELAY")).plus(
                Duration.parse("PT" + config.get("QUAESTOR_SHUTDOWN_TIMEOUT"))).toSeconds();
        assertTrue(pod.getTerminationGracePeriodSeconds() > shutdown, "terminationGracePeriodSeconds "
                + pod.getTerminationGracePeriodSeconds() + " exceeds shutdown delay + timeout " + shutdown);

        // The pods hold the application role only; the owner's credentials are the migration Job's.
        assertEquals("false", env(c, "QUAESTOR_MIGRATE_AT_START").getValue());
        Set<String> secrets = new TreeSet<>(Set.of("quaestor-db-app", "quaestor-audit-hmac", "quaestor-tsa", "quaestor-list-cursor"));
        if (overlay.getFileName().toString().equals("prod")) {
            secrets.add("quaestor-console"); // the console's client secret: prod turns the console on
        }
        assertEquals(secrets, new TreeSet<>(secretsReferenced(c)));
        assertTrue(pod.getVolumes().stream().anyMatch(v -> v.getSecret() != null
                && baseName(v.getSecret().getSecretName()).equals("quaestor-audit-signing-key")), "signing key from a Secret");
        for (EnvVar e : c.getEnv()) {
            assertFalse(e.getName().matches(".*(PASSWORD|KEY)$") && e.getValue() != null, e.getName() + " is inlined");
        }

        // Policies: the whole ConfigMap mounted as a directory (no subPath), so updates reach the pod.
        Volume policies = pod.getVolumes().stream().filter(v -> v.getName().equals("policies")).findFirst().orElseThrow();
        assertEquals("quaestor-policies", policies.getConfigMap().getName(), "a fixed name: updates in place, no roll");
        assertTrue(c.getVolumeMounts().stream().filter(m -> m.getName().equals("policies"))
                .allMatch(m -> m.getSubPath() == null && m.getMountPath().equals(config.get("QUAESTOR_POLICIES_PATH"))));

        Service svc = r.one(Service.class, "quaestor");
        assertEquals(d.getSpec().getSelector().getMatchLabels(), svc.getSpec().getSelector());
        assertEquals("http", svc.getSpec().getPorts().get(0).getTargetPort().getStrVal());

        PodDisruptionBudget pdb = r.one(PodDisruptionBudget.class, "quaestor");
        assertEquals(d.getSpec().getSelector().getMatchLabels(), pdb.getSpec().getSelector().getMatchLabels());
        assertTrue(pdb.getSpec().getMaxUnavailable() != null || pdb.getSpec().getMinAvailable() != null);

        HorizontalPodAutoscaler hpa = r.one(HorizontalPodAutoscaler.class, "quaestor");
        assertEquals("autoscaling/v2", hpa.getApiVersion());
        assertEquals("Deployment", hpa.getSpec().getScaleTargetRef().getKind());
        assertEquals("quaestor", hpa.getSpec().getScaleTargetRef().getName());
        assertTrue(hpa.getSpec().getMinReplicas() >= 2);
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void migrationJobRunsFlywayAsTheOwnerAndExits(Path overlay) throws Exception {
        Rendered r = Rendered.render(overlay);
        Job job = r.one(Job.class, "quaestor-migrate");
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertPodHardened(r, pod);
        assertEquals("Never", pod.getRestartPolicy());
        Container c = pod.getContainers().get(0);
        assertEquals(r.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0).getImage(),
                c.getImage(), "the same image as the server");
        assertEquals("true", env(c, "QUARKUS_INIT_AND_EXIT").getValue());
        assertEquals("true", env(c, "QUAESTOR_MIGRATE_AT_START").getValue());
        assertEquals(Set.of("quaestor-db-owner"), secretsReferenced(c));
        assertEquals("false", env(c, "QUAESTOR_CONSOLE_ENABLED").getValue(), "the migration run signs nobody in");
        // Without a JDBC URL Quarkus treats the datasource as unconfigured and the run exits 0 having migrated nothing.
        assertFalse(configOf(r, c).getOrDefault("QUAESTOR_DB_URL", "").isBlank(), "the Job sees QUAESTOR_DB_URL");
        assertEquals("quaestor-db-owner", baseName(env(c, "QUAESTOR_DB_USER").getValueFrom().getSecretKeyRef().getName()));
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void retentionRunsOnScheduleAsTheOwnerOntoItsArchiveVolume(Path overlay) throws Exception {
        Rendered r = Rendered.render(overlay);
        CronJob cron = r.one(CronJob.class, "quaestor-retention");
        assertEquals("Forbid", cron.getSpec().getConcurrencyPolicy(), "one run at a time");
        PodSpec pod = cron.getSpec().getJobTemplate().getSpec().getTemplate().getSpec();
        assertPodHardened(r, pod);
        assertEquals("Never", pod.getRestartPolicy());
        Container c = pod.getContainers().get(0);
        assertEquals(r.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0).getImage(),
                c.getImage(), "the same image as the server");
        assertEquals("dev.quaestor.retention.RetentionJob", c.getCommand().get(c.getCommand().size() - 1));
        assertEquals(Set.of("quaestor-db-owner"), secretsReferenced(c), "the owner's credentials, never the application's");
        assertEquals("quaestor-db-owner", baseName(env(c, "QUAESTOR_DB_OWNER_USER").getValueFrom().getSecretKeyRef().getName()));
        assertFalse(configOf(r, c).getOrDefault("QUAESTOR_DB_URL", "").isBlank(), "the job sees QUAESTOR_DB_URL");
        int age = Integer.parseInt(configOf(r, c).get("QUAESTOR_RETENTION_AGE_MONTHS"));
        assertTrue(age >= 1, "the current month is never archived");
        List<String> args = c.getArgs();
        assertEquals("run", args.get(0));
        String out = args.get(args.indexOf("--out") + 1);
        String archive = c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals(out)).findFirst()
                .orElseThrow(() -> new AssertionError("--out " + out + " is a mounted volume")).getName();
        String claim = pod.getVolumes().stream().filter(v -> v.getName().equals(archive)).findFirst().orElseThrow()
                .getPersistentVolumeClaim().getClaimName();
        assertNotNull(r.one(PersistentVolumeClaim.class, claim), "the archive volume is a PersistentVolumeClaim of the overlay");
        String trust = args.get(args.indexOf("--trust") + 1);
        assertTrue(c.getVolumeMounts().stream().anyMatch(m -> trust.startsWith(m.getMountPath() + "/") && Boolean.TRUE.equals(m.getReadOnly())),
                "the verifier key is mounted read-only, from outside the database");
        if (overlay.getFileName().toString().equals("prod")) {
            assertTrue(args.contains("--tsa-ca"), "prod anchors, so its archives' time-stamps are checked too");
        }
        NetworkPolicy np = r.one(NetworkPolicy.class, "quaestor-retention");
        assertEquals(cron.getSpec().getJobTemplate().getSpec().getTemplate().getMetadata().getLabels(), np.getSpec().getPodSelector().getMatchLabels());
        assertTrue(np.getSpec().getIngress() == null || np.getSpec().getIngress().isEmpty(), "the job accepts nothing");
        egressOnlyTo(np, Set.of(5432, 53));
    }

    /** deploy/base, which a GitOps repository's overlay names as its remote base, and every overlay. */
    Stream<Path> baseAndOverlays() throws IOException {
        return Stream.concat(Stream.of(REPO.resolve("deploy/base")), overlays());
    }

    /**
     * Every workload that connects to PostgreSQL (its container sees QUAESTOR_DB_URL: the server, the migration Job, the
     * retention CronJob) mounts the database's CA certificate read-only from the ConfigMap quaestor-db-ca, and a URL that
     * verifies the server names that mounted file as its sslrootcert: without it the driver looks for
     * ~/.postgresql/root.crt, which the image does not have, and connects to nothing. The base and prod verify the
     * server and its name (verify-full), and their pods do not start without the certificate; dev's throw-away
     * in-cluster database is not verified.
     */
    @ParameterizedTest
    @MethodSource("baseAndOverlays")
    void everyWorkloadThatConnectsVerifiesTheDatabaseAgainstAMountedCa(Path dir) throws Exception {
        Rendered r = Rendered.render(dir);
        boolean verifyFull = !dir.getFileName().toString().equals("dev");
        var workloads = new TreeMap<String, PodSpec>();
        r.all(Deployment.class).forEach(d -> workloads.put("Deployment " + d.getMetadata().getName(), d.getSpec().getTemplate().getSpec()));
        r.all(Job.class).forEach(j -> workloads.put("Job " + j.getMetadata().getName(), j.getSpec().getTemplate().getSpec()));
        r.all(CronJob.class).forEach(c -> workloads.put("CronJob " + c.getMetadata().getName(),
                c.getSpec().getJobTemplate().getSpec().getTemplate().getSpec()));
        var connecting = new TreeSet<String>();
        workloads.forEach((workload, pod) -> pod.getContainers().forEach(c -> {
            String url = databaseUrl(r, c);
            if (url == null) {
                return;
            }
            connecting.add(workload);
            String where = dir.getFileName() + ": " + workload + ", container " + c.getName();
            VolumeMount mount = c.getVolumeMounts().stream().filter(m -> {
                Volume v = pod.getVolumes().stream().filter(pv -> pv.getName().equals(m.getName())).findFirst().orElseThrow();
                return v.getConfigMap() != null && v.getConfigMap().getName().equals(DB_CA);
            }).findFirst().orElseThrow(() -> new AssertionError(where + " connects to the database and mounts no ConfigMap " + DB_CA));
            assertEquals(Boolean.TRUE, mount.getReadOnly(), where + ": the CA certificate is mounted read-only");
            assertNull(mount.getSubPath(), where + ": the whole volume is mounted, so an updated certificate reaches the pod");
            ConfigMapVolumeSource ca = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                    .orElseThrow().getConfigMap();

            Map<String, String> query = query(url);
            String mode = query.getOrDefault("sslmode", "prefer");
            if (verifyFull) {
                assertEquals("verify-full", mode, where + ": the server's certificate and name are checked: " + url);
                assertNotEquals(Boolean.TRUE, ca.getOptional(), where + ": without the CA certificate nothing connects, so the pods wait for it");
            }
            if (mode.startsWith("verify-")) {
                String root = query.get("sslrootcert");
                assertNotNull(root, where + ": sslmode=" + mode + " without sslrootcert reads ~/.postgresql/root.crt, which the image has not: " + url);
                assertTrue(root.startsWith(mount.getMountPath() + "/"), where + ": sslrootcert " + root + " lies in the mount at "
                        + mount.getMountPath());
                String file = root.substring(mount.getMountPath().length() + 1);
                String key = ca.getItems() == null || ca.getItems().isEmpty() ? file : ca.getItems().stream()
                        .filter(i -> i.getPath().equals(file)).map(KeyToPath::getKey).findFirst().orElse(null);
                assertEquals(DB_CA_KEY, key, where + ": sslrootcert " + root + " is the key " + DB_CA_KEY + " of " + DB_CA);
            }
        }));
        assertTrue(connecting.containsAll(Set.of("Deployment quaestor", "Job quaestor-migrate", "CronJob quaestor-retention")),
                dir.getFileName() + ": the server, the migration Job and the retention job connect: " + connecting);
    }

    /** QUAESTOR_DB_URL as the container sees it (its own env over its ConfigMaps), or null. */
    private static String databaseUrl(Rendered r, Container c) {
        for (EnvVar e : c.getEnv()) {
            if (e.getName().equals("QUAESTOR_DB_URL")) {
                return e.getValue();
            }
        }
        return c.getEnvFrom().stream().filter(f -> f.getConfigMapRef() != null)
                .map(f -> r.one(ConfigMap.class, f.getConfigMapRef().getName()).getData().get("QUAESTOR_DB_URL"))
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    /** A JDBC URL's parameters (after the ?). */
    private static Map<String, String> query(String url) {
        var params = new TreeMap<String, String>();
        int q = url.indexOf('?');
        if (q >= 0) {
            for (String p : url.substring(q + 1).split("&")) {
                int eq = p.indexOf('=');
                params.put(URLDecoder.decode(eq < 0 ? p : p.substring(0, eq), StandardCharsets.UTF_8),
                        eq < 0 ? "" : URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void networkPoliciesAdmitOnlyTheMcpPortAndReachOnlyDatabaseRedisIdpAndDns(Path overlay) throws Exception {
        Rendered r = Rendered.render(overlay);
        Deployment d = r.one(Deployment.class, "quaestor");
        NetworkPolicy np = r.one(NetworkPolicy.class, "quaestor");
        assertEquals(d.getSpec().getSelector().getMatchLabels(), np.getSpec().getPodSelector().getMatchLabels());
        assertEquals(List.of("Ingress", "Egress"), np.getSpec().getPolicyTypes());
        assertFalse(np.getSpec().getIngress().isEmpty());
        np.getSpec().getIngress().forEach(rule -> assertEquals(Set.of(MCP_PORT), ports(rule.getPorts()), "ingress ports"));
        np.getSpec().getEgress().forEach(rule -> {
            assertFalse(rule.getPorts() == null || rule.getPorts().isEmpty(), "every egress rule names its ports");
            assertTrue(EGRESS_PORTS.containsAll(ports(rule.getPorts())), "egress ports " + ports(rule.getPorts()));
        });
        Set<Integer> reached = np.getSpec().getEgress().stream().flatMap(e -> ports(e.getPorts()).stream()).collect(Collectors.toSet());
        assertTrue(reached.containsAll(Set.of(5432, 443, 53)) && (reached.contains(6379) || reached.contains(6380)), "" + reached);
        assertTrue(np.getSpec().getEgress().stream().flatMap(e -> e.getPorts().stream())
                .anyMatch(p -> p.getPort().getIntVal() == 53 && "UDP".equals(p.getProtocol())), "DNS over UDP");

        NetworkPolicy migrate = r.one(NetworkPolicy.class, "quaestor-migrate");
        assertEquals(r.one(Job.class, "quaestor-migrate").getSpec().getTemplate().getMetadata().getLabels(),
                migrate.getSpec().getPodSelector().getMatchLabels());
        assertTrue(migrate.getSpec().getIngress() == null || migrate.getSpec().getIngress().isEmpty(), "the Job accepts nothing");
        egressOnlyTo(migrate, Set.of(5432, 53));
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void policiesConfigMapHoldsExactlyTheRepositorysPolicyFiles(Path overlay) throws Exception {
        Rendered r = Rendered.render(overlay);
        ConfigMap cm = r.one(ConfigMap.class, "quaestor-policies");
        Set<String> files = yamlFiles(REPO.resolve("policies"));
        assertEquals(files, new TreeSet<>(cm.getData().keySet()),
                "deploy/components/policies/kustomization.yaml lists every file of policies/");
        for (String f : files) {
            assertEquals(Files.readString(REPO.resolve("policies").resolve(f)), cm.getData().get(f), f);
        }
    }

    /** The copy the policies ConfigMap is generated from (inside the kustomize root) is policies/, file for file. */
    @Test
    void deployCopyOfThePoliciesEqualsPolicies() throws Exception {
        Path copy = REPO.resolve("deploy/components/policies/files");
        Set<String> want = yamlFiles(REPO.resolve("policies"));
        assertEquals(want, yamlFiles(copy), "deploy/components/policies/files/ has the files of policies/; fix with: "
                + "rm deploy/components/policies/files/*.yaml && cp policies/*.yaml deploy/components/policies/files/");
        for (String f : want) {
            assertEquals(Files.readString(REPO.resolve("policies").resolve(f)), Files.readString(copy.resolve(f)),
                    "deploy/components/policies/files/" + f + " differs from policies/" + f
                            + "; fix with: cp policies/*.yaml deploy/components/policies/files/");
        }
    }

    /** The GitOps example renders on default flags and mounts the organisation's own policy files, not the samples. */
    @Test
    void ownPoliciesExampleMountsItsOwnPolicyFiles() throws Exception {
        Path example = REPO.resolve("deploy/examples/own-policies");
        Rendered r = Rendered.render(example);
        ConfigMap cm = r.one(ConfigMap.class, "quaestor-policies");
        Set<String> files = yamlFiles(example.resolve("policies"));
        assertEquals(files, new TreeSet<>(cm.getData().keySet()));
        for (String f : files) {
            assertEquals(Files.readString(example.resolve("policies").resolve(f)), cm.getData().get(f), f);
        }
        assertNotNull(r.one(Deployment.class, "quaestor"));
    }

    /** The dev overlay's copy of the sample content is content/, file for file. */
    @Test
    void devSampleContentEqualsContent() throws Exception {
        Path copy = REPO.resolve("deploy/overlays/dev/sample-content");
        Map<String, String> sources = Map.of(
                "fixtures.yaml", "content/fixtures.yaml",
                "handbook-welcome.md", "content/docs/handbook/welcome.md",
                "trials-summary.md", "content/docs/trials/onco-734/summary.md",
                "trials-protocol.md", "content/docs/trials/onco-734/protocol.md",
                "home-alice-notes.md", "content/docs/home/alice/notes.md",
                "home-bob-notes.md", "content/docs/home/bob/notes.md");
        try (var list = Files.list(copy)) {
            assertEquals(new TreeSet<>(sources.keySet()), list.map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new)), "deploy/overlays/dev/sample-content/");
        }
        for (var e : sources.entrySet()) {
            assertEquals(Files.readString(REPO.resolve(e.getValue())), Files.readString(copy.resolve(e.getKey())),
                    "deploy/overlays/dev/sample-content/" + e.getKey() + " differs from " + e.getValue());
        }
    }

    private static Set<String> yamlFiles(Path dir) throws Exception {
        try (var list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml") || n.endsWith(".yml"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void prodCreatesNoSecretsAndDevMarksItsExamples() throws Exception {
        assertTrue(Rendered.render(OVERLAYS.resolve("prod")).all(Secret.class).isEmpty(), "prod expects Secrets made out of band");
        List<Secret> dev = Rendered.render(OVERLAYS.resolve("dev")).all(Secret.class);
        assertFalse(dev.isEmpty());
        assertTrue(Files.readString(OVERLAYS.resolve("dev/kustomization.yaml")).contains("EXAMPLE SECRETS - DEV ONLY"));
    }

    /**
     * prod anchors checkpoints: the TSA's URL is https, the root it pins is read from the quaestor-tsa Secret's mount,
     * the credentials come from that Secret, and the network policy lets the pods reach the TSA (an address block on
     * the URL's port).
     */
    @Test
    void prodAnchorsCheckpointsWithATsaItCanReachAndPinsItsRootFromASecret() throws Exception {
        Rendered r = Rendered.render(OVERLAYS.resolve("prod"));
        Deployment d = r.one(Deployment.class, "quaestor");
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> config = configOf(r, c);
        java.net.URI tsa = java.net.URI.create(config.get("QUAESTOR_AUDIT_ANCHOR_TSA_URL"));
        assertEquals("https", tsa.getScheme());
        String ca = config.get("QUAESTOR_AUDIT_ANCHOR_TSA_CA");
        var mount = c.getVolumeMounts().stream().filter(m -> ca.startsWith(m.getMountPath() + "/")).findFirst()
                .orElseThrow(() -> new AssertionError("no volume holds " + ca));
        Volume volume = d.getSpec().getTemplate().getSpec().getVolumes().stream().filter(v -> v.getName().equals(mount.getName()))
                .findFirst().orElseThrow();
        assertEquals("quaestor-tsa", volume.getSecret().getSecretName(), "the pinned root comes from a Secret");
        assertTrue(secretsReferenced(c).contains("quaestor-tsa"), "the credentials too");
        int port = tsa.getPort() < 0 ? 443 : tsa.getPort();
        NetworkPolicy np = r.one(NetworkPolicy.class, "quaestor");
        assertTrue(np.getSpec().getEgress().stream().anyMatch(e -> ports(e.getPorts()).contains(port) && e.getTo() != null
                && e.getTo().stream().anyMatch(t -> t.getIpBlock() != null)), "an egress rule to the TSA's addresses on port " + port);
        // The base leaves anchoring off, and starts without the Secret.
        Rendered dev = Rendered.render(OVERLAYS.resolve("dev"));
        Container devContainer = dev.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertNull(configOf(dev, devContainer).get("QUAESTOR_AUDIT_ANCHOR_TSA_URL"));
        assertTrue(volume.getSecret().getOptional(), "optional: pods start without anchoring");
    }

    /**
     * Forwarded client addresses are believed only from the ingress: prod lists the proxies (address blocks) and admits
     * only the ingress controller's and Prometheus's pods (by their labels) to the port; no overlay turns on Quarkus's own forwarding, which
     * would believe anyone; dev, reached without an ingress, believes no one.
     */
    @Test
    void forwardedAddressesAreBelievedOnlyFromTheIngressInProdAndFromNoOneInDev() throws Exception {
        Rendered prod = Rendered.render(OVERLAYS.resolve("prod"));
        Container c = prod.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> config = configOf(prod, c);
        String proxies = config.get("QUAESTOR_HTTP_FORWARDED_TRUSTED_PROXIES");
        assertNotNull(proxies, "prod names the ingress as the trusted proxy");
        for (String block : proxies.split(",")) {
            assertTrue(block.strip().matches("[0-9a-fA-F:.]+(/\\d{1,3})?"), "an address or CIDR block: " + block);
        }
        assertTrue(List.of("x-forwarded-for", "forwarded").contains(config.getOrDefault("QUAESTOR_HTTP_FORWARDED_HEADER",
                "x-forwarded-for")));
        NetworkPolicy np = prod.one(NetworkPolicy.class, "quaestor");
        np.getSpec().getIngress().forEach(rule -> {
            assertFalse(rule.getFrom() == null || rule.getFrom().isEmpty(), "prod admits named peers only");
            // Named pods of a named namespace: every pod admitted is a trusted hop whose X-Forwarded-For is believed.
            rule.getFrom().forEach(peer -> {
                assertNotNull(peer.getNamespaceSelector(), "by namespace: " + peer);
                assertTrue(peer.getPodSelector() != null && peer.getPodSelector().getMatchLabels() != null
                        && !peer.getPodSelector().getMatchLabels().isEmpty(), "and by pod labels, not a whole namespace: " + peer);
            });
        });
        for (Path overlay : overlays().toList()) {
            Rendered r = Rendered.render(overlay);
            Container oc = r.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0);
            Map<String, String> oconfig = configOf(r, oc);
            assertFalse("true".equalsIgnoreCase(oconfig.get("QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING")), overlay.toString());
            assertTrue(oc.getEnv() == null || oc.getEnv().stream()
                    .noneMatch(e -> e.getName().equals("QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING")), overlay.toString());
        }
        Rendered dev = Rendered.render(OVERLAYS.resolve("dev"));
        Container dc = dev.one(Deployment.class, "quaestor").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertNull(configOf(dev, dc).get("QUAESTOR_HTTP_FORWARDED_TRUSTED_PROXIES"));
    }

    /**
     * prod narrows every egress rule of every NetworkPolicy to named peers: an address block that is not the whole
     * Internet, or cluster DNS by namespace and pod labels. A rule without {@code to:} reaches its ports anywhere; the
     * retention job, which holds the owner's credentials, reaches PostgreSQL at the same block as the server.
     */
    @Test
    void prodNarrowsEveryEgressRuleToNamedPeers() throws Exception {
        Rendered prod = Rendered.render(OVERLAYS.resolve("prod"));
        List<NetworkPolicy> policies = prod.all(NetworkPolicy.class);
        assertTrue(policies.size() >= 3, "the server's, the migration Job's and the retention job's: " + policies.size());
        for (NetworkPolicy np : policies) {
            String name = np.getMetadata().getName();
            assertTrue(np.getSpec().getPolicyTypes().contains("Egress"), name + " restricts egress");
            assertFalse(np.getSpec().getEgress() == null || np.getSpec().getEgress().isEmpty(), name + " has egress rules");
            np.getSpec().getEgress().forEach(rule -> {
                assertFalse(rule.getTo() == null || rule.getTo().isEmpty(),
                        name + ": an egress rule without to: reaches its ports " + ports(rule.getPorts()) + " anywhere");
                rule.getTo().forEach(peer -> {
                    if (peer.getIpBlock() != null) {
                        String cidr = peer.getIpBlock().getCidr();
                        assertFalse(cidr.endsWith("/0"), name + ": " + cidr + " is every address");
                    } else {
                        assertTrue(peer.getNamespaceSelector() != null && peer.getPodSelector() != null
                                && peer.getPodSelector().getMatchLabels() != null
                                && !peer.getPodSelector().getMatchLabels().isEmpty()
                                && ports(rule.getPorts()).equals(Set.of(53)),
                                name + ": only cluster DNS is named by labels, by namespace and pod: " + peer);
                    }
                });
            });
        }
        Set<String> database = databaseBlocks(prod.one(NetworkPolicy.class, "quaestor"));
        assertFalse(database.isEmpty(), "the server reaches PostgreSQL at an address block");
        for (String job : List.of("quaestor-migrate", "quaestor-retention")) {
            assertEquals(database, databaseBlocks(prod.one(NetworkPolicy.class, job)), job + " reaches the same PostgreSQL");
        }
    }

    private static Set<String> databaseBlocks(NetworkPolicy np) {
        return np.getSpec().getEgress().stream().filter(e -> ports(e.getPorts()).contains(5432))
                .flatMap(e -> e.getTo() == null ? Stream.of("anywhere") : e.getTo().stream()
                        .map(t -> t.getIpBlock() == null ? "peer " + t : t.getIpBlock().getCidr()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The optional alert rules render, alert on the anchoring lag the server publishes, and no overlay includes them. */
    @Test
    void optionalAlertsRenderAndWatchTheAnchoringLag() throws Exception {
        Rendered r = Rendered.render(REPO.resolve("deploy/optional/monitoring"));
        var rule = r.all(GenericKubernetesResource.class).stream().filter(o -> o.getKind().equals("PrometheusRule")).findFirst()
                .orElseThrow();
        assertEquals("monitoring.coreos.com/v1", rule.getApiVersion());
        String rules = rule.getAdditionalProperties().get("spec").toString();
        assertTrue(rules.contains("alert=QuaestorAnchoringBehind") && rules.contains("(quaestor_audit_anchor_lag_seconds) > 300"), rules);
        assertTrue(rules.contains("alert=QuaestorAnchoringLosingCheckpoints"), rules);
    }

    /**
     * The alert rules watch, besides the anchoring lag, audit records that could not be committed, a refused policy set
     * and overdue daily reviews; every metric an expression names is one the server registers (its Micrometer name with
     * dots as underscores, a counter's with {@code _total}); and every alert has a summary and a description that
     * points at a section of docs/ that exists.
     */
    @Test
    @SuppressWarnings("unchecked")
    void everyAlertWatchesAMetricTheServerExportsAndPointsAtItsDocs() throws Exception {
        Rendered r = Rendered.render(REPO.resolve("deploy/optional/monitoring"));
        var rule = r.all(GenericKubernetesResource.class).stream().filter(o -> o.getKind().equals("PrometheusRule")).findFirst()
                .orElseThrow();
        var spec = (Map<String, Object>) rule.getAdditionalProperties().get("spec");
        var alerts = new TreeMap<String, Map<String, Object>>();
        for (var group : (List<Map<String, Object>>) spec.get("groups")) {
            for (var alert : (List<Map<String, Object>>) group.get("rules")) {
                assertNull(alerts.put((String) alert.get("alert"), alert), "one rule per alert: " + alert.get("alert"));
            }
        }
        Map<String, String> watched = Map.of("QuaestorAnchoringBehind", "quaestor_audit_anchor_lag_seconds",
                "QuaestorAnchoringLosingCheckpoints", "quaestor_audit_anchor_lag_seconds",
                "QuaestorAuditRecordsNotCommitted", "quaestor_audit_failures_total",
                "QuaestorPolicySetDegraded", "quaestor_policy_degraded",
                "QuaestorDailyReviewOverdue", "quaestor_review_overdue");
        watched.forEach((alert, metric) -> assertTrue(alerts.containsKey(alert)
                && alerts.get(alert).get("expr").toString().contains(metric), alert + " watches " + metric + ": " + alerts.keySet()));

        Map<String, Boolean> meters = serverMeters();
        Pattern metric = Pattern.compile("\\bquaestor_[a-z0-9_]+");
        Pattern section = Pattern.compile("(docs/[a-z-]+\\.md), \"([^\"]+)\"");
        alerts.forEach((alert, body) -> {
            Matcher m = metric.matcher(body.get("expr").toString());
            while (m.find()) {
                String name = m.group();
                boolean counter = name.endsWith("_total");
                String meter = name.replaceFirst("_(total|seconds)$", "");
                assertTrue(meters.containsKey(meter), alert + ": " + name + " is no metric the server registers (src/server/src/main)");
                assertEquals(meters.get(meter), counter, alert + ": " + name + (counter ? " is no counter" : " is a counter: " + meter + "_total"));
            }
            var annotations = (Map<String, Object>) body.get("annotations");
            assertFalse(annotations == null || annotations.getOrDefault("summary", "").toString().isBlank(), alert + " has a summary");
            String description = annotations.getOrDefault("description", "").toString();
            Matcher doc = section.matcher(description);
            assertTrue(doc.find(), alert + "'s description points at a section of docs/: " + description);
            do {
                String heading = doc.group(2);
                try (var lines = Files.lines(REPO.resolve(doc.group(1)))) {
                    assertTrue(lines.anyMatch(l -> l.matches("#+ " + Pattern.quote(heading))), alert + ": " + doc.group(1)
                            + " has no section \"" + heading + "\"");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            } while (doc.find());
        });
    }

    /** Every meter the server registers under a quaestor.* name, as its Prometheus name without suffix: counter or not. */
    private static Map<String, Boolean> serverMeters() throws IOException {
        Pattern registration = Pattern.compile("(?:(\\w+)\\.builder|\\.(counter|gauge))\\(\\s*\"(quaestor\\.[a-z0-9.]+)\"");
        var meters = new TreeMap<String, Boolean>();
        try (var files = Files.walk(REPO.resolve("src/server/src/main/java"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = registration.matcher(Files.readString(f));
                while (m.find()) {
                    String kind = m.group(1) != null ? m.group(1) : m.group(2);
                    meters.put(m.group(3).replace('.', '_'), kind.equals("counter") || kind.endsWith("Counter"));
                }
            }
        }
        assertTrue(meters.containsKey("quaestor_audit_failures"), "the server's meters are found: " + meters.keySet());
        return meters;
    }

    @Test
    void optionalInClusterDatabaseRendersAndIsIncludedByNoOverlay() throws Exception {
        Rendered r = Rendered.render(REPO.resolve("deploy/optional/cloudnative-pg"));
        var cluster = r.all(GenericKubernetesResource.class).stream().filter(o -> o.getKind().equals("Cluster")).findFirst().orElseThrow();
        assertEquals("postgresql.cnpg.io/v1", cluster.getApiVersion());
        for (Path overlay : overlays().toList()) {
            assertTrue(Rendered.render(overlay).all(GenericKubernetesResource.class).isEmpty(),
                    overlay + " renders only kinds the Kubernetes model knows");
        }
    }

    @Test
    void aFieldUnknownToTheModelIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> Rendered.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: typo}
                spec:
                  replicas: 2
                  template:
                    spec:
                      containers:
                        - name: c
                          image: i
                          securityContext: {readOnlyRootFilesytem: true}
                """));
        assertTrue(e.getMessage().contains("readOnlyRootFilesytem"), e.getMessage());
    }

    private static void assertPodHardened(Rendered r, PodSpec pod) {
        assertEquals(Boolean.FALSE, pod.getAutomountServiceAccountToken(), "no service-account token");
        assertNotNull(pod.getServiceAccountName());
        assertFalse(pod.getServiceAccountName().equals("default"), "a dedicated ServiceAccount");
        ServiceAccount sa = r.one(ServiceAccount.class, pod.getServiceAccountName());
        assertEquals(Boolean.FALSE, sa.getAutomountServiceAccountToken());
        assertEquals(Boolean.TRUE, pod.getSecurityContext().getRunAsNonRoot(), "runAsNonRoot");
        assertTrue(pod.getSecurityContext().getRunAsUser() == null || pod.getSecurityContext().getRunAsUser() > 0);
        assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
        assertNull(pod.getHostNetwork());
        for (Container c : pod.getContainers()) {
            var sc = c.getSecurityContext();
            assertEquals(Boolean.FALSE, sc.getAllowPrivilegeEscalation(), c.getName() + ": allowPrivilegeEscalation");
            assertEquals(Boolean.TRUE, sc.getReadOnlyRootFilesystem(), c.getName() + ": readOnlyRootFilesystem");
            assertEquals(List.of("ALL"), sc.getCapabilities().getDrop(), c.getName() + ": drop ALL");
            assertTrue(sc.getCapabilities().getAdd() == null || sc.getCapabilities().getAdd().isEmpty());
            assertTrue(sc.getPrivileged() == null || !sc.getPrivileged());
            for (String kind : List.of("cpu", "memory")) {
                assertNotNull(c.getResources().getRequests().get(kind), c.getName() + ": request " + kind);
                assertNotNull(c.getResources().getLimits().get(kind), c.getName() + ": limit " + kind);
            }
            String tmp = c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/tmp")).findFirst()
                    .orElseThrow(() -> new AssertionError(c.getName() + ": /tmp is writable")).getName();
            assertNotNull(pod.getVolumes().stream().filter(v -> v.getName().equals(tmp)).findFirst().orElseThrow().getEmptyDir(),
                    "/tmp is an emptyDir");
        }
    }

    private static void assertProbe(Probe p, String kind) {
        assertNotNull(p, kind + " probe");
        HTTPGetAction get = p.getHttpGet();
        assertEquals(PROBES.get(kind), get.getPath(), kind + " probe path");
        assertEquals("http", get.getPort().getStrVal());
    }

    private static Map<String, String> configOf(Rendered r, Container c) {
        String name = c.getEnvFrom().get(0).getConfigMapRef().getName();
        return r.one(ConfigMap.class, name).getData();
    }

    private static EnvVar env(Container c, String name) {
        return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(c.getName() + " has no " + name));
    }

    private static Set<String> secretsReferenced(Container c) {
        return c.getEnv().stream().filter(e -> e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null)
                .map(e -> baseName(e.getValueFrom().getSecretKeyRef().getName())).collect(Collectors.toSet());
    }

    /** A generated Secret's name without kustomize's hash suffix. */
    private static String baseName(String name) {
        return name.replaceFirst("-[a-z0-9]{10}$", "");
    }

    /**
     * The policy restricts egress, and each of its egress rules names its ports, all of them among {@code allowed}: a rule
     * without ports reaches every port, and a policy whose types leave out Egress restricts none.
     */
    private static void egressOnlyTo(NetworkPolicy np, Set<Integer> allowed) {
        String name = np.getMetadata().getName();
        assertTrue(np.getSpec().getPolicyTypes().contains("Egress"), name + " restricts egress: " + np.getSpec().getPolicyTypes());
        assertFalse(np.getSpec().getEgress() == null || np.getSpec().getEgress().isEmpty(), name + " has egress rules");
        np.getSpec().getEgress().forEach(rule -> {
            assertFalse(rule.getPorts() == null || rule.getPorts().isEmpty(), name + ": every egress rule names its ports");
            assertTrue(allowed.containsAll(ports(rule.getPorts())), name + ": egress ports " + ports(rule.getPorts()));
        });
    }

    private static Set<Integer> ports(List<NetworkPolicyPort> ports) {
        return ports == null ? Set.of() : ports.stream().map(p -> p.getPort().getIntVal()).collect(Collectors.toSet());
    }
}
