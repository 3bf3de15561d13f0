package dev.quaestor.cli;

import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.PolicyValidationException;
import dev.quaestor.policy.whatif.Fact;
import dev.quaestor.policy.whatif.FactsFile;
import dev.quaestor.policy.whatif.Replay;
import dev.quaestor.policy.whatif.ReportBuilder;
import dev.quaestor.policy.whatif.ReportJson;
import dev.quaestor.policy.whatif.ReportMarkdown;
import dev.quaestor.policy.whatif.ReportTable;
import dev.quaestor.policy.whatif.WhatIfReport;
import dev.quaestor.policy.whatif.Window;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;

/**
 * {@code policy what-if PROPOSED-DIR}: who would gain or lose access to what if the proposed policy files were
 * active, judged on recorded history. The history is a facts export ({@code --current DIR --facts FILE}, offline) or
 * the running server ({@code --server URL}, as an administrator: {@code POST /admin/policy/what-if}, with the token in
 * {@code --token-file} or {@code QUAESTOR_TOKEN}). Prints the report as a table; {@code --json} and {@code --markdown}
 * write it for tools and for a pull-request comment.
 *
 * <p>Exit status: 0 when no guard is crossed, 3 when a gain crosses a guard the files declare, 1 when a set is
 * rejected, 2 for bad usage, an unreadable facts export or a server that does not answer with a report.
 */
public final class WhatIfCommand {

    public static final int GUARD_CROSSED = 3;
    static final String USAGE = "usage: policy what-if PROPOSED-DIR (--current DIR --facts FILE | --server URL [--token-file F])"
            + " [--since 30d | --from T --to T] [--json FILE] [--markdown FILE] [--examples N] [--depth N]";

    private WhatIfCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** {@code args} as the command line gives them, {@code what-if} first. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> o = args.length < 2 || !args[0].equals("what-if") ? null : options(args);
        boolean offline = o != null && o.get("current") != null && o.get("facts") != null && o.get("server") == null;
        boolean online = o != null && o.get("server") != null && o.get("current") == null && o.get("facts") == null;
        if (!offline && !online) {
            err.println(USAGE);
            return 2;
        }
        PolicySet proposed;
        PolicySet current = null;
        try {
            proposed = load("proposed", args[1], err);
            if (offline) {
                current = load("current", o.get("current"), err);
            }
        } catch (PolicyValidationException e) {
            return 1;
        }
        try {
            int examples = number(o.getOrDefault("examples", "5"), "--examples");
            int depth = number(o.getOrDefault("depth", "2"), "--depth");
            WhatIfReport report = offline ? replay(current, proposed, o, examples, depth)
                    : new WhatIfServer(o.get("server"), token(o)).ask(proposed, o, examples, depth);
            out.print(ReportTable.render(report));
            if (o.get("json") != null) {
                Files.writeString(Path.of(o.get("json")), ReportJson.write(report), StandardCharsets.UTF_8);
            }
            if (o.get("markdown") != null) {
                Files.writeString(Path.of(o.get("markdown")), ReportMarkdown.render(report), StandardCharsets.UTF_8);
            }
            return report.guardCrossed() ? GUARD_CROSSED : 0;
        } catch (WhatIfServer.Rejected e) {
            err.println("proposed policy set in " + args[1] + " rejected by the server:");
            e.errors().forEach(x -> err.println("  " + x));
            return 1;
        } catch (IllegalArgumentException | FactsFile.BadFacts | WhatIfServer.Failed e) {
            err.println("what-if: " + e.getMessage());
            return 2;
        } catch (IOException | UncheckedIOException e) {
            err.println("what-if: " + e.getMessage());
            return 2;
        }
    }

    /** The facts export replayed here, through the two sets. */
    private static WhatIfReport replay(PolicySet current, PolicySet proposed, Map<String, String> o, int examples, int depth)
            throws IOException {
        var facts = new ArrayList<Fact>();
        FactsFile.Header header;
        try (BufferedReader in = Files.newBufferedReader(Path.of(o.get("facts")), StandardCharsets.UTF_8)) {
            header = FactsFile.read(in, facts::add);
        }
        var window = Window.of(o.get("since"), o.get("from"), o.get("to"), Instant.now(), new Window(header.from(), header.to()));
        var replay = new Replay(current, proposed, rev -> null);
        return ReportBuilder.replay(replay, facts.stream().filter(window::holds).toList(), window, examples, depth);
    }

    private static String token(Map<String, String> o) throws IOException {
        String token = o.get("token-file") != null ? Files.readString(Path.of(o.get("token-file")), StandardCharsets.UTF_8).strip()
                : System.getenv("QUAESTOR_TOKEN");
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("--server needs an administrator's token: --token-file FILE or QUAESTOR_TOKEN");
        }
        return token;
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
            if (n >= 0 && n <= 100) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(what + " must be a number from 0 to 100, not '" + s + "'");
    }
}
