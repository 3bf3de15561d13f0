package dev.quaestor.retention;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The retention job's command line, run by a Kubernetes CronJob with the database owner's credentials
 * ({@code QUAESTOR_DB_URL}, {@code QUAESTOR_DB_OWNER_USER}, {@code QUAESTOR_DB_OWNER_PASSWORD}), never the
 * application's:
 * <pre>
 * retention run --age MONTHS --out DIR --trust KEY [--tsa-ca TSA-ROOT.pem] [--max-months 12]
 *               [--lock-timeout 2s] [--retry-every 10s] [--retry-for 10m]
 * retention lock --age MONTHS --reason TEXT
 * </pre>
 * Exit status: 0 done (or nothing to do), 1 an archive did not verify or the database failed, 2 refused or bad usage,
 * 3 deferred (long reads held the table through every try; the next run goes on).
 */
public final class RetentionJob {

    static final String USAGE = "usage: retention run --age MONTHS --out DIR --trust KEY [--tsa-ca TSA-ROOT.pem] [--max-months N]"
            + " [--lock-timeout 2s] [--retry-every 10s] [--retry-for 10m]\n       retention lock --age MONTHS --reason TEXT";
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    private RetentionJob() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out));
    }

    /** Runs the command with the connection settings in {@code env}; returns the exit status. */
    public static int run(String[] args, Map<String, String> env, PrintStream out) {
        Map<String, String> o;
        try {
            o = options(args);
        } catch (IllegalArgumentException e) {
            out.println(e.getMessage());
            out.println(USAGE);
            return RetentionRun.REFUSED;
        }
        String url = env.get("QUAESTOR_DB_URL");
        String user = env.getOrDefault("QUAESTOR_DB_OWNER_USER", env.get("QUAESTOR_DB_USER"));
        if (url == null || user == null) {
            out.println("QUAESTOR_DB_URL and QUAESTOR_DB_OWNER_USER (the database owner) must be set");
            return RetentionRun.REFUSED;
        }
        String password = env.getOrDefault("QUAESTOR_DB_OWNER_PASSWORD", env.getOrDefault("QUAESTOR_DB_PASSWORD", ""));
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            if (args[0].equals("lock")) {
                String refusal = RetentionLock.lock(c, Integer.parseInt(o.get("age")), o.get("reason"));
                out.println(refusal == null ? "retention locked: no run may archive a month younger than " + o.get("age")
                        + " month(s); a later lock may raise this, never lower it" : refusal);
                return refusal == null ? RetentionRun.DONE : RetentionRun.REFUSED;
            }
            var options = new RetentionOptions(Integer.parseInt(o.get("age")), Path.of(o.get("out")), Path.of(o.get("trust")),
                    o.get("tsa-ca") == null ? null : Path.of(o.get("tsa-ca")), Integer.parseInt(o.getOrDefault("max-months", "12")),
                    duration(o.getOrDefault("lock-timeout", "2s")), duration(o.getOrDefault("retry-for", "10m")),
                    duration(o.getOrDefault("retry-every", "10s")));
            return new RetentionRun(c, options, out).run();
        } catch (SQLException e) {
            out.println("failed: " + e.getMessage());
            return RetentionRun.FAILED;
        } catch (java.io.IOException e) {
            out.println("failed: " + e);
            return RetentionRun.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("interrupted");
            return RetentionRun.FAILED;
        }
    }

    private static Map<String, String> options(String[] args) {
        if (args.length == 0 || !(args[0].equals("run") || args[0].equals("lock"))) {
            throw new IllegalArgumentException("a command is needed: run or lock");
        }
        var o = new HashMap<String, String>();
        for (int i = 1; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option VALUE at '" + args[i] + "'");
            }
            if (o.put(args[i].substring(2), args[i + 1]) != null) {
                throw new IllegalArgumentException(args[i] + " is given twice");
            }
        }
        var known = args[0].equals("lock") ? java.util.Set.of("age", "reason")
                : java.util.Set.of("age", "out", "trust", "tsa-ca", "max-months", "lock-timeout", "retry-for", "retry-every");
        for (String k : o.keySet()) {
            if (!known.contains(k)) {
                throw new IllegalArgumentException("unknown option --" + k);
            }
        }
        var needed = args[0].equals("lock") ? java.util.List.of("age", "reason") : java.util.List.of("age", "out", "trust");
        for (String k : needed) {
            if (o.get(k) == null) {
                throw new IllegalArgumentException("--" + k + " is required");
            }
        }
        try {
            Integer.parseInt(o.get("age"));
            Integer.parseInt(o.getOrDefault("max-months", "12"));
            for (String d : java.util.List.of("lock-timeout", "retry-for", "retry-every")) {
                duration(o.getOrDefault(d, "1s"));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--age and --max-months take whole numbers");
        }
        if (args[0].equals("run") && !Files.isReadable(Path.of(o.get("trust")))) {
            throw new IllegalArgumentException("--trust " + o.get("trust") + " cannot be read");
        }
        return o;
    }

    private static Duration duration(String s) {
        Matcher m = DURATION.matcher(s.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not a duration (500ms, 2s, 10m, 1h)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
