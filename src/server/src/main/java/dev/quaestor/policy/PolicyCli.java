package dev.quaestor.policy;

import dev.quaestor.cli.CommandOptions;
import dev.quaestor.cli.WhatIfCommand;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The offline policy tool, for administrators' own CI and for questions without a server:
 *
 * <pre>
 *   policy test DIR
 *   policy explain DIR --subject S [--roles a,b] [--groups g] [--client C] [--tenant T] [--scopes s1,s2]
 *                      [--source-ip IP] [--time 2026-03-02T09:30:00+01:00] --action read --uri URI
 *   policy what-if PROPOSED-DIR ...   (see {@link WhatIfCommand})
 *   policy listed DIR [POLICY-DIR]     (see {@link ConfigMapListing})
 * </pre>
 *
 * Exit status: 0 for a valid set whose tests pass (test) or an allow (explain), 1 for a rejected
 * set or a deny, 2 for bad usage.
 */
public final class PolicyCli {

    static final String USAGE = "usage: policy test DIR | policy explain DIR --subject S [--roles a,b] [--groups g] [--client C]"
            + " [--tenant T] [--scopes s1,s2] [--source-ip IP] [--time ISO-8601] --action read --uri URI"
            + " | policy what-if PROPOSED-DIR (--current DIR --facts FILE | --server URL) ... (policy what-if for all its options)"
            + " | policy listed DIR [POLICY-DIR]";
    private static final Set<String> COMMANDS = Set.of("test", "explain", "what-if", "listed");
    private static final Set<String> EXPLAIN_OPTIONS = Set.of("subject", "roles", "groups", "client", "tenant", "scopes",
            "source-ip", "time", "action", "uri");

    private PolicyCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 0 && !COMMANDS.contains(args[0])) {
            err.println("unknown command '" + args[0] + "'");
            err.println(USAGE);
            return 2;
        }
        if (args.length > 0 && args[0].equals("what-if")) {
            return WhatIfCommand.run(args, out, err);
        }
        if (args.length > 0 && args[0].equals("listed")) {
            return ConfigMapListing.run(args, out, err);
        }
        if (args.length < 2) {
            err.println(USAGE);
            return 2;
        }
        Map<String, String> o;
        try {
            if (args[1].startsWith("--")) {
                throw new CommandOptions.BadUsage("the policy directory comes first, before " + args[1]);
            }
            if (args[0].equals("test") && args.length > 2) {
                throw new CommandOptions.BadUsage(args[2].startsWith("--") ? "unknown option " + args[2]
                        : "one directory only, not also '" + args[2] + "'");
            }
            o = CommandOptions.parse(args, 2, args[0].equals("test") ? Set.of() : EXPLAIN_OPTIONS);
            if (args[0].equals("explain")) {
                checkExplain(o);
            }
        } catch (CommandOptions.BadUsage e) {
            err.println(args[0] + ": " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        PolicySet set;
        try {
            set = PolicyLoader.load(Path.of(args[1]));
        } catch (PolicyValidationException e) {
            err.println("policy set in " + args[1] + " rejected:");
            e.errors().forEach(x -> err.println("  " + x));
            return 1;
        }
        if (args[0].equals("test")) {
            out.println("policy set " + set.revision() + ": " + set.files().size() + " files, " + set.rules().size()
                    + " rules, " + set.limits().size() + " limits");
            for (PolicyTestCase t : set.tests()) {
                out.println("  ok  " + t.file() + ":" + t.line() + "  " + t.name());
            }
            out.println(set.tests().size() + " passed, 0 failed");
            return 0;
        }
        try {
            var req = new ExplainRequest(o.get("subject"), list(o.get("roles")), list(o.get("groups")), o.get("client"),
                    o.get("tenant"), list(o.get("scopes")), o.get("action"), o.get("uri"), o.get("source-ip"),
                    o.containsKey("time") ? time(o.get("time")) : null);
            var r = req.answer(set);
            out.println(r.decision() + " " + r.canonicalUri());
            out.println("  deciding rules:    " + (r.rules().isEmpty() ? "(none: default deny)" : String.join(", ", r.rules())));
            out.println("  overridden allows: " + (r.overriddenAllows().isEmpty() ? "-" : String.join(", ", r.overriddenAllows())));
            out.println("  judged at:         " + r.time() + (o.containsKey("time") ? "" : " (now: no --time given)"));
            out.println("  revision:          " + r.revision());
            if (!r.namedByNoRule().isEmpty()) {
                out.println("  named by no rule:  " + String.join(", ", r.namedByNoRule()) + " (misspelt?)");
            }
            return r.decision().equals("allow") ? 0 : 1;
        } catch (RuntimeException e) {
            err.println("explain: " + e.getMessage());
            return 2;
        }
    }

    /** The options explain cannot answer without, and a source address that is not an IP literal (never looked up). */
    private static void checkExplain(Map<String, String> o) {
        for (String required : List.of("subject", "action", "uri")) {
            if (o.get(required) == null || o.get(required).isBlank()) {
                throw new CommandOptions.BadUsage("--" + required + " is required");
            }
        }
        String ip = o.get("source-ip");
        if (ip != null && !Cidr.isAddress(ip)) {
            throw new CommandOptions.BadUsage("--source-ip must be an IPv4 or IPv6 address, not '" + ip + "'");
        }
    }

    private static java.time.Instant time(String s) {
        try {
            return java.time.OffsetDateTime.parse(s).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("--time must be an ISO-8601 time with an offset, e.g. 2026-03-04T10:00:00+01:00,"
                    + " not '" + s + "'");
        }
    }

    private static List<String> list(String s) {
        return s == null || s.isBlank() ? List.of() : List.of(s.split(","));
    }
}
