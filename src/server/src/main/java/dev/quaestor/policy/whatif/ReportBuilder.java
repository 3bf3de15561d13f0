package dev.quaestor.policy.whatif;

import dev.quaestor.policy.Action;
import dev.quaestor.policy.Guard;
import dev.quaestor.policy.whatif.Replayed.Change;
import dev.quaestor.policy.whatif.Replayed.Check;
import dev.quaestor.policy.whatif.WhatIfReport.GuardHit;
import dev.quaestor.policy.whatif.WhatIfReport.Mismatch;
import dev.quaestor.policy.whatif.WhatIfReport.PrefixTally;
import dev.quaestor.policy.whatif.WhatIfReport.RevisionCheck;
import dev.quaestor.policy.whatif.WhatIfReport.RoleTally;
import dev.quaestor.policy.whatif.WhatIfReport.Row;
import dev.quaestor.policy.whatif.WhatIfReport.Summary;
import dev.quaestor.policy.whatif.WhatIfReport.Undecided;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Gathers replayed facts into a {@link WhatIfReport}: facts of one subject, action and URI are one row (however many
 * hours, addresses and revisions they span), counted in requests, with up to {@code examples} request ids. A row's
 * request ids are those of the facts it counts, never of another fact of the same subject, action and URI that the
 * change leaves alone or cannot judge: the ids a facts file carries, or those looked up for {@link #sources}.
 */
public final class ReportBuilder {

    /** Mismatches listed in the report (all are counted). */
    static final int MISMATCHES_LISTED = 50;

    private final Replay replay;
    private final int examples;
    private final int depth;
    private final Map<List<String>, Pending> gained = new LinkedHashMap<>();
    private final Map<List<String>, Pending> lost = new LinkedHashMap<>();
    private final Map<List<String>, Pending> undecided = new LinkedHashMap<>();
    private final Map<List<String>, Tally> byPrefix = new TreeMap<>(ReportBuilder::compareKeys);
    private final Map<List<String>, Tally> byRole = new TreeMap<>(ReportBuilder::compareKeys);
    private final List<Mismatch> mismatches = new ArrayList<>();
    private final Map<Row, List<Fact>> sources = new IdentityHashMap<>();
    private final Set<String> missingRevisions = new TreeSet<>();
    private long records;
    private long facts;
    private long unchanged;
    private long listingRecords;
    private long listingFacts;
    private long notReplayable;
    private long checked;
    private long reproduced;
    private long mismatched;
    private long withoutRevision;

    /**
     * @param examples request ids kept per row
     * @param depth path segments a URI prefix keeps ({@code file:///docs/trials/} is 2)
     */
    public ReportBuilder(Replay replay, int examples, int depth) {
        this.replay = replay;
        this.examples = examples;
        this.depth = depth;
    }

    private static final class Pending {
        final Fact first;
        final Set<String> roles = new TreeSet<>();
        final Set<String> before = new LinkedHashSet<>();
        final Set<String> after = new LinkedHashSet<>();
        final Set<String> missing = new LinkedHashSet<>();
        final List<String> ids = new ArrayList<>();
        final List<Fact> sources = new ArrayList<>();
        boolean mayGain;
        long requests;

        Pending(Fact first) {
            this.first = first;
        }
    }

    private static final class Tally {
        long requests;
        final Set<String> subjects = new HashSet<>();
    }

    /** Replays each fact once (on every core) and gathers the report. */
    public static WhatIfReport replay(Replay replay, List<Fact> facts, Window window, int examples, int depth) {
        return replayed(replay, facts, examples, depth).build(window.from(), window.to());
    }

    /** Each fact replayed once (on every core) and gathered, for a report whose rows' {@link #sources} are wanted. */
    public static ReportBuilder replayed(Replay replay, List<Fact> facts, int examples, int depth) {
        var builder = new ReportBuilder(replay, examples, depth);
        facts.parallelStream().map(replay::replay).toList().forEach(builder::add);
        return builder;
    }

    /**
     * The facts behind a gained or lost row of the last {@link #build} (the row itself, not an equal one), as many as
     * it has examples: each fact is at least one request, so their requests hold all the examples the row may show.
     */
    public List<Fact> sources(Row row) {
        return sources.getOrDefault(row, List.of());
    }

    public void add(Replayed r) {
        Fact f = r.fact();
        records += f.count();
        facts++;
        switch (r.change()) {
            case UNCHANGED -> unchanged += f.count();
            case LISTING -> {
                listingRecords += f.count();
                listingFacts++;
            }
            case NOT_REPLAYABLE -> notReplayable += f.count();
            case GAINED -> pending(gained, r);
            case LOST -> pending(lost, r);
            case NOT_JUDGED -> pending(undecided, r);
        }
        switch (r.check()) {
            case REPRODUCED -> {
                checked += f.count();
                reproduced += f.count();
            }
            case MISMATCH -> {
                checked += f.count();
                mismatched += f.count();
                if (mismatches.size() < MISMATCHES_LISTED) {
                    mismatches.add(new Mismatch(f.subject(), f.action(), f.uri(), f.revision(), f.decision(), f.count()));
                }
            }
            case NO_REVISION -> {
                withoutRevision += f.count();
                if (f.revision() != null) {
                    missingRevisions.add(f.revision());
                }
            }
            case NOT_CHECKED -> {
            }
        }
    }

    private void pending(Map<List<String>, Pending> into, Replayed r) {
        Fact f = r.fact();
        var p = into.computeIfAbsent(List.of(nn(f.subject()), f.action(), f.uri()), k -> new Pending(f));
        p.requests += f.count();
        p.roles.addAll(f.roles());
        p.before.addAll(r.rulesBefore());
        p.after.addAll(r.rulesAfter());
        p.missing.addAll(r.missing());
        p.mayGain |= r.mayGain();
        if (p.sources.size() < examples) {
            p.sources.add(f);
        }
        for (String id : f.examples()) {
            if (p.ids.size() < examples) {
                p.ids.add(id);
            }
        }
        String change = switch (r.change()) {
            case GAINED -> "gained";
            case LOST -> "lost";
            default -> "not judged";
        };
        String prefix = prefix(f.uri());
        var t = byPrefix.computeIfAbsent(List.of(change, prefix), k -> new Tally());
        t.requests += f.count();
        t.subjects.add(nn(f.subject()));
        byRole.computeIfAbsent(List.of(change, String.join(",", new TreeSet<>(f.roles())), prefix), k -> new Tally()).requests
                += f.count();
    }

    public WhatIfReport build(Instant from, Instant to) {
        sources.clear();
        var summary = new Summary(replay.current().revision(), replay.proposed().revision(), from, to, records, facts,
                unchanged, listingRecords, listingFacts, notReplayable);
        List<Row> gainedRows = rows(gained);
        List<Undecided> notJudged = sorted(undecided).stream().map(p -> new Undecided(p.first.subject(), p.first.action(),
                p.first.uri(), prefix(p.first.uri()), List.copyOf(p.roles), p.requests, List.copyOf(p.missing), p.mayGain))
                .toList();
        var prefixes = byPrefix.entrySet().stream().map(e -> new PrefixTally(e.getKey().get(0), e.getKey().get(1),
                e.getValue().requests, e.getValue().subjects.size())).toList();
        var roles = byRole.entrySet().stream().map(e -> new RoleTally(e.getKey().get(0), e.getKey().get(1),
                e.getKey().get(2), e.getValue().requests)).toList();
        var check = new RevisionCheck(checked, reproduced, mismatched, withoutRevision, List.copyOf(missingRevisions),
                List.copyOf(mismatches));
        return new WhatIfReport(summary, gainedRows, rows(lost), notJudged, prefixes, roles,
                guardHits(gainedRows, notJudged), check, false);
    }

    /**
     * The guards of both sets: a change cannot lift the guard that judges it, so the current set's guards hold as
     * well as those the proposed set adds.
     */
    private List<GuardHit> guardHits(List<Row> gainedRows, List<Undecided> notJudged) {
        var guards = new ArrayList<Guard>(replay.current().guards());
        guards.addAll(replay.proposed().guards());
        var out = new ArrayList<GuardHit>();
        for (Row r : gainedRows) {
            hits(guards, "gained", r.action(), r.uri(), r.subject(), r.requests(), out);
        }
        for (Undecided u : notJudged) {
            if (u.mayGain()) {
                hits(guards, "may gain (not judged)", u.action(), u.uri(), u.subject(), u.requests(), out);
            }
        }
        return out;
    }

    private static void hits(List<Guard> guards, String change, String action, String uri, String subject, long requests,
            List<GuardHit> out) {
        Action a = Action.fromWireName(action);
        CanonicalUri c = UriCanonicalizer.canonicalize(uri);
        var seen = new HashSet<String>();
        for (Guard g : guards) {
            if (g.covers(a, c) && seen.add(g.id())) {
                out.add(new GuardHit(g.id(), g.origin(), change, action, uri, subject, requests));
            }
        }
    }

    private List<Row> rows(Map<List<String>, Pending> from) {
        return sorted(from).stream().map(p -> {
            var row = new Row(p.first.subject(), p.first.action(), p.first.uri(), prefix(p.first.uri()),
                    List.copyOf(p.roles), p.requests, List.copyOf(p.before), List.copyOf(p.after), List.copyOf(p.ids));
            sources.put(row, List.copyOf(p.sources));
            return row;
        }).toList();
    }

    private static List<Pending> sorted(Map<List<String>, Pending> m) {
        return m.values().stream().sorted(Comparator.comparingLong((Pending p) -> -p.requests)
                .thenComparing(p -> p.first.uri()).thenComparing(p -> nn(p.first.subject()))
                .thenComparing(p -> p.first.action())).toList();
    }

    /** The URI's first {@code depth} path segments, ending in a slash when there is more below. */
    String prefix(String uri) {
        CanonicalUri c = UriCanonicalizer.canonicalize(uri);
        int keep = Math.min(depth, Math.max(0, c.segments().size() - 1));
        String p = new CanonicalUri(c.scheme(), c.authority(), c.segments().subList(0, keep)).toString();
        return keep < c.segments().size() ? p + "/" : p;
    }

    private static int compareKeys(List<String> a, List<String> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static String nn(String s) {
        return s == null ? "" : s;
    }
}
