package dev.quaestor.policy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Whether a GitOps repository deploys the policy files it tests: kustomize takes no globs, so the
 * {@code quaestor-policies} ConfigMap holds only the files its kustomization lists by hand, while {@code policy test}
 * and {@code policy what-if} read the whole folder. A file added to the folder and not to the list passes the checks
 * and never reaches the cluster; a file listed that is not in the folder stops the render. This compares the two:
 *
 * <pre>
 *   policy listed DIR [POLICY-DIR]
 * </pre>
 *
 * DIR holds {@code kustomization.yaml}; POLICY-DIR (default DIR/policies) is the folder the checks read. Every name in
 * it that the server would read, or would refuse the set over ({@link PolicyFileName}), must be listed under the
 * {@code quaestor-policies} generator's {@code files}, and every file listed must be in it under its own name, a
 * policy file's; but for the annotation ({@code .revision-annotation=FILE}), from anywhere, written later or not. Exit status: 0 when they agree, 1 when they do not (each difference printed), 2 for bad usage or a
 * kustomization that cannot be read.
 */
public final class ConfigMapListing {

    static final String USAGE = "usage: policy listed DIR [POLICY-DIR]";
    private static final String NAME = "quaestor-policies";
    /** The key that delivers the activation's annotation ({@code quaestor.policies.annotation-file}'s default). */
    static final String ANNOTATION = ".revision-annotation";

    private ConfigMapListing() {
    }

    /** A kustomization that cannot be compared: no file, not YAML, no such generator. */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2 || args.length > 3 || args[1].startsWith("--")) {
            err.println(USAGE);
            return 2;
        }
        Path dir = Path.of(args[1]);
        Path folder = args.length == 3 ? Path.of(args[2]) : dir.resolve("policies");
        try {
            List<String> differences = differences(dir, folder);
            if (differences.isEmpty()) {
                out.println("every policy file in " + folder + " is listed in the " + NAME + " ConfigMap, and nothing else");
                return 0;
            }
            err.println("the " + NAME + " ConfigMap of " + kustomization(dir) + " is not the policy folder " + folder + ":");
            differences.forEach(d -> err.println("  " + d));
            return 1;
        } catch (Unreadable e) {
            err.println("listed: " + e.getMessage());
            return 2;
        }
    }

    /** What differs between the files the generator lists and the policy folder's files, in words; empty if nothing. */
    static List<String> differences(Path dir, Path folder) throws Unreadable {
        Path k = kustomization(dir);
        Map<String, Path> listed = listed(k); // key in the ConfigMap -> the file it comes from
        if (!Files.isDirectory(folder)) {
            throw new Unreadable("no policy folder " + folder);
        }
        var inFolder = new TreeSet<String>();
        try (Stream<Path> files = Files.list(folder)) {
            files.map(p -> p.getFileName().toString()).filter(n -> PolicyFileName.of(n) != PolicyFileName.Kind.IGNORED)
                    .forEach(inFolder::add);
        } catch (IOException e) {
            throw new Unreadable("cannot read " + folder + ": " + e.getMessage());
        }
        var found = new ArrayList<String>();
        for (String name : inFolder) {
            Path file = folder.resolve(name).toAbsolutePath().normalize();
            if (!listed.containsValue(file)) {
                found.add(name + ": in the folder, so tested, but not listed under files: (never deployed)");
            }
        }
        listed.forEach((key, file) -> {
            if (key.equals(ANNOTATION)) {
                // The annotation, written by the pipeline that renders the overlay (after the checks run, so perhaps
                // not there yet): not a policy file, not tested.
                return;
            }
            if (!Files.isRegularFile(file)) {
                found.add(key + ": listed, but there is no file " + file);
            } else if (!file.getParent().equals(folder.toAbsolutePath().normalize())) {
                found.add(key + ": listed from " + file + ", outside the policy folder (deployed, but never tested)");
            } else if (PolicyFileName.of(key) != PolicyFileName.Kind.POLICY) {
                found.add(key + ": not a policy file's name in the ConfigMap (" + PolicyFileName.RULE + ")");
            } else if (!key.equals(file.getFileName().toString())) {
                found.add(key + ": listed from " + file.getFileName() + ", under another name (the revision and the file:line of"
                        + " errors in the cluster would not be those of the files tested)");
            }
        });
        return found;
    }

    private static Path kustomization(Path dir) throws Unreadable {
        for (String name : List.of("kustomization.yaml", "kustomization.yml", "Kustomization")) {
            if (Files.isRegularFile(dir.resolve(name))) {
                return dir.resolve(name);
            }
        }
        throw new Unreadable("no kustomization.yaml in " + dir);
    }

    /** The generator's files: each ConfigMap key and the file it is read from ({@code key=path} or a path). */
    private static Map<String, Path> listed(Path k) throws Unreadable {
        Object doc;
        try {
            doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(k));
        } catch (IOException | RuntimeException e) {
            throw new Unreadable("cannot read " + k + " as YAML: " + e.getMessage());
        }
        if (doc instanceof Map<?, ?> m && m.get("configMapGenerator") instanceof List<?> generators) {
            for (Object g : generators) {
                if (g instanceof Map<?, ?> gen && NAME.equals(gen.get("name"))) {
                    var listed = new TreeMap<String, Path>();
                    if (gen.get("files") instanceof List<?> files) {
                        for (Object f : files) {
                            String entry = String.valueOf(f);
                            int eq = entry.indexOf('=');
                            String path = eq < 0 ? entry : entry.substring(eq + 1);
                            String key = eq < 0 ? Path.of(path).getFileName().toString() : entry.substring(0, eq);
                            listed.put(key, k.getParent().resolve(path).toAbsolutePath().normalize());
                        }
                    }
                    return listed;
                }
            }
        }
        throw new Unreadable(k + " has no configMapGenerator named " + NAME);
    }
}
