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
import dev.quaestor.policy.whatif.SelectedFacts;
import dev.quaestor.policy.whatif.WhatIfReport;
import dev.quaestor.policy.whatif.Window;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
            + " [--since 30d | [--from T] [--to T]] [--json FILE] [--markdown FILE] [--examples N] [--depth N]";

    private static final Set<String> OPTIONS = Set.of("current", "facts", "server", "token-file", "since", "from", "to",
            "json", "markdown", "examples", "depth");

    private WhatIfCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** {@code args} as the command line gives them, {@code what-if} first. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2 || !args[0].equals("what-if")) {
            err.println(USAGE);
            return 2;
        }
        Map<String, String> o;
        try {
            if (args[1].startsWith("--")) {
                throw new CommandOptions.BadUsage("the proposed policy directory comes first, before " + args[1]);
            }
            o = CommandOptions.parse(args, 2, OPTIONS);
            boolean offline = o.get("current") != null && o.get("facts") != null && o.get("server") == null;
            boolean online = o.get("server") != null && o.get("current") == null && o.get("facts") == null;
            if (!offline && !online) {
                throw new CommandOptions.BadUsage("give --current DIR and --facts FILE, or --server URL");
            }
            for (String output : List.of("json", "markdown")) {
                if (o.get(output) != null) {
                    writable(o.get(output), "--" + output);
                }
            }
        } catch (CommandOptions.BadUsage e) {
            err.println("what-if: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        boolean offline = o.get("server") == null;
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
                write(o.get("json"), "--json", ReportJson.write(report));
            }
            if (o.get("markdown") != null) {
                write(o.get("markdown"), "--markdown", ReportMarkdown.render(report));
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
        String file = o.get("facts");
        try (BufferedReader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            header = FactsFile.read(in, facts::add);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--facts " + file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException("--facts " + file + ": not readable (permission denied)");
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException("--facts " + file + ": cannot be read: " + e.getMessage());
        }
        var export = new Window(header.from(), header.to());
        var window = Window.of(o.get("since"), o.get("from"), o.get("to"), Instant.now(), export);
        var replay = new Replay(current, proposed, rev -> null);
        return ReportBuilder.replay(replay, SelectedFacts.of(facts, window, export, file), window, examples, depth);
    }

    /** Refuses, before anything runs, an output file that cannot be written: a report lost at the end is a run wasted. */
    private static void writable(String file, String option) {
        Path p = Path.of(file).toAbsolutePath();
        Path dir = p.getParent();
        if (Files.isDirectory(p)) {
            throw new CommandOptions.BadUsage(option + " " + file + " is a directory, not a file");
        }
        if (dir == null || !Files.isDirectory(dir)) {
            throw new CommandOptions.BadUsage(option + " " + file + " cannot be written: no such directory " + dir);
        }
        if (Files.exists(p) ? !Files.isWritable(p) : !Files.isWritable(dir)) {
            throw new CommandOptions.BadUsage(option + " " + file + " cannot be written: permission denied");
        }
    }

    private static void write(String file, String option, String text) {
        try {
            Files.writeString(Path.of(file), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("the report above was not written to " + option + " " + file + ": "
                    + e.getClass().getSimpleName() + " " + e.getMessage());
        }
    }

    private static String token(Map<String, String> o) throws IOException {
        String token;
        try {
            token = o.get("token-file") != null ? Files.readString(Path.of(o.get("token-file")), StandardCharsets.UTF_8).strip()
                    : System.getenv("QUAESTOR_TOKEN");
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--token-file " + o.get("token-file") + ": no such file");
        }
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("--server needs an administrator's token: --token-file FILE or QUAESTOR_TOKEN");
        }
        return token;
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
