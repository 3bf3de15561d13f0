package dev.quaestor.bench;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Conditions;
import dev.quaestor.policy.Effect;
import dev.quaestor.policy.Facts;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.ResourcePattern;
import dev.quaestor.policy.Rule;
import dev.quaestor.policy.SubjectSet;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The policy set, queries and callers of the decision benchmark, shared with
 * {@link PolicyDecisionProbe}. The rules look like an organisation's: per-department and
 * per-project folders, role and subject grants, globs, ${subject} homes and denies. Queries hit
 * existing rule paths, deep files below them and misses; callers are random users with two roles.
 */
final class PolicyBenchData {

    static final Facts FACTS = new Facts("10.1.2.3", Instant.parse("2026-03-04T10:00:00Z"));

    final PolicySet set;
    final CanonicalUri[] uris = new CanonicalUri[4096];
    final Identity[] callers = new Identity[256];

    PolicyBenchData(int rules) {
        var rnd = new Random(1234);
        var list = new ArrayList<Rule>(rules);
        for (int i = 0; i < rules; i++) {
            int dept = i % 97;
            String pattern = switch (i % 10) {
                case 0 -> "file:///org/dept-" + dept + "/*/reports/*.md";
                case 1 -> "file:///org/dept-" + dept + "/proj-" + i + "/raw/**";
                case 2 -> "git://repo-" + (i % 500) + "/main/docs/**";
                default -> "file:///org/dept-" + dept + "/proj-" + i + "/**";
            };
            Effect effect = i % 10 == 1 ? Effect.DENY : Effect.ALLOW;
            var subjects = i % 3 == 0 ? new SubjectSet(Set.of(), Set.of(), Set.of("user-" + (i % 1000)), Set.of(), Set.of())
                    : new SubjectSet(Set.of("role-" + (i % 50)), Set.of(), Set.of(), Set.of(), Set.of());
            list.add(new Rule("r" + i, effect, EnumSet.of(Action.LIST, Action.READ), List.of(ResourcePattern.parse(pattern)),
                    subjects, Conditions.NONE, "bench.yaml:" + (i + 1)));
        }
        list.add(new Rule("homes", Effect.ALLOW, EnumSet.allOf(Action.class),
                List.of(ResourcePattern.parse("file:///home/${subject}/**")),
                new SubjectSet(Set.of("*"), Set.of(), Set.of(), Set.of(), Set.of()), Conditions.NONE, "bench.yaml:0"));
        set = new PolicySet("bench", list, List.of(), List.of(), List.of("bench.yaml"));

        for (int k = 0; k < uris.length; k++) {
            int i = rnd.nextInt(rules);
            String u = switch (k % 5) {
                case 0 -> "file:///org/dept-" + (i % 97) + "/proj-" + i + "/reports/q" + k + ".md";
                case 1 -> "file:///org/dept-" + (i % 97) + "/proj-" + i + "/raw/sample-" + k + ".bin";
                case 2 -> "file:///org/dept-" + (i % 97) + "/proj-" + i + "/a/b/c/d/file-" + k + ".txt";
                case 3 -> "file:///home/user-" + (k % 1000) + "/notes-" + k + ".md";
                default -> "file:///nowhere/" + k;
            };
            uris[k] = UriCanonicalizer.canonicalize(u);
        }
        for (int k = 0; k < callers.length; k++) {
            callers[k] = new Identity("user-" + rnd.nextInt(1000), "client", "acme",
                    new HashSet<>(List.of("role-" + rnd.nextInt(50), "role-" + rnd.nextInt(50))), Set.of(), Set.of("resources:read"));
        }
    }
}
