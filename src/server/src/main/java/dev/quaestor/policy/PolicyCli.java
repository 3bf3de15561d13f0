package dev.quaestor.policy;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The offline policy tool, for administrators' own CI and for questions without a server:
 *
 * <pre>
 *   policy test DIR
 *   policy explain DIR --subject S [--roles a,b] [--groups g] [--client C] [--tenant T] [--scopes s1,s2]
 *                      [--source-ip IP] [--time 2026-03-02T09:30:00+01:00] --action read --uri URI
 * </pre>
 *
 * Exit status: 0 for a valid set whose tests pass (test) or an allow (explain), 1 for a rejected
 * set or a deny, 2 for bad usage.
 */
public final class PolicyCli {

    private PolicyCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2 || !(args[0].equals("test") || args[0].equals("explain"))) {
            err.println("usage: policy test DIR | policy explain DIR --subject S [--roles a,b] [--groups g] [--client C]"
                    + " [--tenant T] [--scopes s1,s2] [--source-ip IP] [--time ISO-8601] --action read --uri URI");
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
        Map<String, String> o = options(Arrays.copyOfRange(args, 2, args.length));
        if (o == null) {
            err.println("explain: options come in pairs, e.g. --subject alice");
            return 2;
        }
        try {
            var req = new ExplainRequest(o.get("subject"), list(o.get("roles")), list(o.get("groups")), o.get("client"),
                    o.get("tenant"), list(o.get("scopes")), o.get("action"), o.get("uri"), o.get("source-ip"),
                    o.containsKey("time") ? java.time.OffsetDateTime.parse(o.get("time")).toInstant() : null);
            var r = req.answer(set);
            out.println(r.decision() + " " + r.canonicalUri());
            out.println("  deciding rules:    " + (r.rules().isEmpty() ? "(none: default deny)" : String.join(", ", r.rules())));
            out.println("  overridden allows: " + (r.overriddenAllows().isEmpty() ? "-" : String.join(", ", r.overriddenAllows())));
            out.println("  judged at:         " + r.time() + (o.containsKey("time") ? "" : " (now: no --time given)"));
            out.println("  revision:          " + r.revision());
            return r.decision().equals("allow") ? 0 : 1;
        } catch (RuntimeException e) {
            err.println("explain: " + e.getMessage());
            return 2;
        }
    }

    private static Map<String, String> options(String[] a) {
        if (a.length % 2 != 0) {
            return null;
        }
        var m = new HashMap<String, String>();
        for (int i = 0; i < a.length; i += 2) {
            if (!a[i].startsWith("--")) {
                return null;
            }
            m.put(a[i].substring(2), a[i + 1]);
        }
        return m;
    }

    private static List<String> list(String s) {
        return s == null || s.isBlank() ? List.of() : List.of(s.split(","));
    }
}
