package dev.quaestor.policy.whatif;

import dev.quaestor.policy.whatif.WhatIfReport.GuardHit;
import dev.quaestor.policy.whatif.WhatIfReport.Mismatch;
import dev.quaestor.policy.whatif.WhatIfReport.RevisionCheck;
import dev.quaestor.policy.whatif.WhatIfReport.Row;
import dev.quaestor.policy.whatif.WhatIfReport.Undecided;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A report for someone who may change policy but not read the audit trail: what the change does by recorded roles
 * and URI prefix, with the rules deciding and the requests affected, the guards it crosses and the check's counts,
 * but no subject, no URI below its prefix and no request id. Rows that differ only in those are added together; a
 * row's {@code uri} is then its prefix and its {@code subject} is null.
 */
public final class NamelessReport {

    private NamelessReport() {
    }

    public static WhatIfReport of(WhatIfReport r) {
        RevisionCheck c = r.check();
        var check = new RevisionCheck(c.records(), c.reproduced(), c.mismatched(), c.withoutRevision(), c.missingRevisions(),
                merged(c.mismatches(), m -> Arrays.asList(m.action(), m.revision(), m.recorded()), Mismatch::requests,
                        (m, n) -> new Mismatch(null, m.action(), null, m.revision(), m.recorded(), n)));
        return new WhatIfReport(r.summary(), rows(r.gained()), rows(r.lost()),
                merged(r.notJudged(), u -> Arrays.asList(u.action(), u.prefix(), u.roles(), u.missing(), u.mayGain()),
                        Undecided::requests, (u, n) -> new Undecided(null, u.action(), u.prefix(), u.prefix(), u.roles(), n,
                                u.missing(), u.mayGain())),
                r.byPrefix(), r.byRole(),
                merged(r.guardHits(), g -> Arrays.asList(g.guard(), g.origin(), g.change(), g.action()), GuardHit::requests,
                        (g, n) -> new GuardHit(g.guard(), g.origin(), g.change(), g.action(), null, null, n)),
                check, true);
    }

    private static List<Row> rows(List<Row> rows) {
        return merged(rows, w -> Arrays.asList(w.action(), w.prefix(), w.roles(), w.rulesBefore(), w.rulesAfter()), Row::requests,
                (w, n) -> new Row(null, w.action(), w.prefix(), w.prefix(), w.roles(), n, w.rulesBefore(), w.rulesAfter(),
                        List.of()));
    }

    /**
     * Items with the same key added together (their requests summed) and written without names by {@code nameless};
     * most requests first, in the order met among equals.
     */
    private static <T> List<T> merged(List<T> items, Function<T, List<?>> key, Function<T, Long> requests,
            Nameless<T> nameless) {
        var firsts = new LinkedHashMap<List<?>, T>();
        var sums = new LinkedHashMap<List<?>, Long>();
        for (T item : items) {
            List<?> k = key.apply(item);
            firsts.putIfAbsent(k, item);
            sums.merge(k, requests.apply(item), Long::sum);
        }
        var out = new ArrayList<T>();
        for (Map.Entry<List<?>, T> e : firsts.entrySet()) {
            out.add(nameless.of(e.getValue(), sums.get(e.getKey())));
        }
        out.sort(Comparator.comparing(requests).reversed());
        return out;
    }

    @FunctionalInterface
    private interface Nameless<T> {
        T of(T first, long requests);
    }
}
