package dev.quaestor.policy.whatif;

import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.PolicyValidationException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code policy what-if PROPOSED-DIR --current DIR --facts FILE [--since 30d | --from T --to T] [--json FILE]
 * [--markdown FILE] [--examples N] [--depth N]}: replays a facts export through the current and the proposed
 * policy set and prints who would gain or lose access to what.
 *
 * <p>Exit status: 0 when no guard is crossed, 3 when a gain crosses a guard the files declare, 1 when either set is
 * rejected, 2 for bad usage or an unreadable facts export.
 */
public final class WhatIfCommand {

    public static final int GUARD_CROSSED = 3;
    static final String USAGE = "usage: policy what-if PROPOSED-DIR --current DIR --facts FILE [--since 30d | --from T --to T]"
            + " [--json FILE] [--markdown FILE] [--examples N] [--depth N]";

    private WhatIfCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** {@code args} as the command line gives them, {@code what-if} first. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> o = args.length < 2 || !args[0].equals("what-if") ? null : options(args);
        if (o == null || o.get("current") == null || o.get("facts") == null) {
            err.println(USAGE);
            return 2;
        }
        String proposedDir = args[1];
        PolicySet current;
        PolicySet proposed;
        try {
            current = load("current", o.get("current"), err);
            proposed = load("proposed", proposedDir, err);
        } catch (PolicyValidationException e) {
            return 1;
        }
        try {
            int examples = number(o.getOrDefault("examples", "5"), "--examples");
            int depth = number(o.getOrDefault("depth", "2"), "--depth");
            var facts = new ArrayList<Fact>();
            FactsFile.Header header;
            try (BufferedReader in = Files.newBufferedReader(Path.of(o.get("facts")), StandardCharsets.UTF_8)) {
                header = FactsFile.read(in, facts::add);
            }
            var window = Window.of(o.get("since"), o.get("from"), o.get("to"), Instant.now(),
                    new Window(header.from(), header.to()));
            var replay = new Replay(current, proposed, rev -> null);
            WhatIfReport report = ReportBuilder.replay(replay, facts.stream().filter(window::holds).toList(), window, examples, depth);
            out.print(ReportTable.render(report));
            if (o.get("json") != null) {
                Files.writeString(Path.of(o.get("json")), ReportJson.write(report), StandardCharsets.UTF_8);
            }
            if (o.get("markdown") != null) {
                Files.writeString(Path.of(o.get("markdown")), ReportMarkdown.render(report), StandardCharsets.UTF_8);
            }
            return report.guardCrossed() ? GUARD_CROSSED : 0;
        } catch (IllegalArgumentException | FactsFile.BadFacts e) {
            err.println("what-if: " + e.getMessage());
            return 2;
        } catch (IOException | UncheckedIOException e) {
            err.println("what-if: " + e.getMessage());
            return 2;
        }
    }

    /** {@code --name value} pairs after the command and its directory; null if they do not pair up. */
    private static Map<String, String> options(String[] args) {
        var m = new java.util.HashMap<String, String>();
        if ((args.length - 2) % 2 != 0) {
            return null;
        }
        for (int i = 2; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || m.put(args[i].substring(2), args[i + 1]) != null) {
                return null;
            }
        }
        return m;
    }

    private static PolicySet load(String which, String dir, PrintStream err) {
        try {
            return PolicyLoader.load(Path.of(dir));
        } catch (PolicyValidationException e) {
            err.println(which + " policy set in " + dir + " rejected:");
            e.errors().forEach(x -> err.println("  " + x));
            throw e;
        }
    }

    private static int number(String s, String what) {
        try {
            int n = Integer.parseInt(s);
            if (n >= 0 && n <= 1000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(what + " must be a number from 0 to 1000, not '" + s + "'");
    }
}
