package dev.quaestor.policy.whatif;

import dev.quaestor.policy.PolicyError;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.whatif.WhatIfReport.Row;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replay and its report, on a small policy set and facts as the audit log would give them. */
public class WhatIfReplayTest {

    static final Instant HOUR = Instant.parse("2026-11-02T09:00:00Z");

    public static final String HEAD = "apiVersion: quaestor/v1\nkind: Policy\nrules:\n";
    public static final String STAFF_READ = """
              - id: staff-read-docs
                effect: allow
                actions: [read]
                resources: ["file:///docs/**"]
                subjects: {roles: [staff]}
            """;
    public static final String NO_SECRETS = """
              - id: no-secrets
                effect: deny
                actions: ["*"]
                resources: ["file:///docs/secret/**"]
                subjects: {roles: ["*"]}
            """;
    static final String PI_TRIALS = """
              - id: pi-trials
                effect: allow
                actions: [read]
                resources: ["file:///docs/trials/**"]
                subjects: {roles: [pi]}
                when: {scopes: [trials:read]}
            """;
    static final String CLOSED_TRIAL = """
              - id: closed-trial
                effect: deny
                actions: [read]
                resources: ["file:///docs/trials/x/**"]
                subjects: {roles: [pi]}
            """;
    public static final String GUARDS = """
            guards:
              - id: secrets-stay-shut
                resources: ["file:///docs/secret/**"]
            """;

    static PolicySet set(String rules) {
        var errors = new ArrayList<PolicyError>();
        return PolicyLoader.parse(List.of(Map.entry("p.yaml", HEAD + rules)), errors);
    }

    static Fact fact(String subject, String role, String uri, String decision, String revision, long count, String... ids) {
        return new Fact(subject, null, null, List.of(role), "read", uri, "10.1.2.3", HOUR, revision, decision, count, List.of(ids));
    }

    static WhatIfReport report(PolicySet current, PolicySet proposed, List<Fact> facts) {
        return ReportBuilder.replay(new Replay(current, proposed, r -> null), facts,
                new Window(HOUR.minusSeconds(86400), HOUR.plusSeconds(86400)), 3, 2);
    }

    @Test
    void removingADenyShowsExactlyTheGainedPairsWithCountsAndExampleIds() {
        PolicySet current = set(STAFF_READ + NO_SECRETS);
        PolicySet proposed = set(STAFF_READ);
        String rev = current.revision();
        var facts = List.of(
                fact("alice", "staff", "file:///docs/secret/a.md", "DENY", rev, 3, "r1", "r2", "r3"),
                new Fact("alice", null, null, List.of("staff"), "read", "file:///docs/secret/a.md", "10.9.9.9",
                        HOUR.plusSeconds(3600), rev, "DENY", 2, List.of("r4")),
                fact("bob", "staff", "file:///docs/secret/b.md", "DENY", rev, 1, "r5"),
                fact("carol", "visitor", "file:///docs/secret/a.md", "DENY", rev, 4, "r6"),
                fact("dave", "staff", "file:///docs/pub/x.md", "ALLOW", rev, 7, "r7"));

        var r = report(current, proposed, facts);

        assertEquals(List.of(
                new Row("alice", "read", "file:///docs/secret/a.md", "file:///docs/secret/", List.of("staff"), 5,
                        List.of("no-secrets"), List.of("staff-read-docs"), List.of("r1", "r2", "r3")),
                new Row("bob", "read", "file:///docs/secret/b.md", "file:///docs/secret/", List.of("staff"), 1,
                        List.of("no-secrets"), List.of("staff-read-docs"), List.of("r5"))), r.gained());
        assertEquals(List.of(), r.lost());
        assertEquals(List.of(), r.notJudged());
        assertEquals(17, r.summary().records());
        assertEquals(5, r.summary().facts());
        assertEquals(11, r.summary().unchangedRecords());
        assertEquals(17, r.check().records());
        assertEquals(0, r.check().mismatched());
    }

    @Test
    void narrowingAnAllowShowsTheLosses() {
        PolicySet current = set(STAFF_READ);
        PolicySet proposed = set(STAFF_READ.replace("file:///docs/**", "file:///docs/pub/**"));
        var facts = List.of(
                fact("dave", "staff", "file:///docs/handbook/x.md", "ALLOW", current.revision(), 2, "r1"),
                fact("dave", "staff", "file:///docs/pub/y.md", "ALLOW", current.revision(), 9, "r2"));

        var r = report(current, proposed, facts);

        assertEquals(List.of(new Row("dave", "read", "file:///docs/handbook/x.md", "file:///docs/handbook/", List.of("staff"), 2,
                List.of("staff-read-docs"), List.of(), List.of("r1"))), r.lost());
        assertEquals(List.of(), r.gained());
        assertEquals(9, r.summary().unchangedRecords());
        assertEquals(List.of(new WhatIfReport.RoleTally("lost", "staff", "file:///docs/handbook/", 2)), r.byRole());
    }

    @Test
    void anUnchangedSetShowsNoChangeEvenWhereAScopeDecides() {
        PolicySet current = set(STAFF_READ + NO_SECRETS + PI_TRIALS);
        PolicySet proposed = set(STAFF_READ + NO_SECRETS + PI_TRIALS + "# reworded, same rules\n");
        var facts = List.of(
                fact("paula", "pi", "file:///docs/trials/t1/summary.md", "ALLOW", current.revision(), 6, "r1"),
                fact("paula", "pi", "file:///docs/trials/t1/summary.md", "DENY", current.revision(), 1, "r2"),
                fact("alice", "staff", "file:///docs/secret/a.md", "DENY", current.revision(), 3, "r3"));

        var r = report(current, proposed, facts);

        assertEquals(List.of(), r.gained());
        assertEquals(List.of(), r.lost());
        assertEquals(List.of(), r.notJudged());
        assertEquals(10, r.summary().unchangedRecords());
        assertEquals(0, r.check().mismatched(), "allowed with the scope, denied without: both are what the revision gives");
        assertTrue(ReportMarkdown.render(r).contains("No recorded request would get another answer."));
    }

    @Test
    void aRuleOnAScopeTheRecordLacksIsNotJudgedWhenTheTwoWaysDiffer() {
        PolicySet current = set(PI_TRIALS);
        // Summaries open to every PI, scope or not: with the scope nothing changes, without it access is gained.
        PolicySet proposed = set(PI_TRIALS + """
                  - id: pi-summaries
                    effect: allow
                    actions: [read]
                    resources: ["file:///docs/trials/*/summary.md"]
                    subjects: {roles: [pi]}
                """);
        // Recorded under a revision whose files are not at hand: its decision cannot say which way it was.
        var facts = List.of(fact("paula", "pi", "file:///docs/trials/t1/summary.md", "DENY", "0".repeat(64), 4, "r1"));

        var r = report(current, proposed, facts);

        assertEquals(List.of(), r.gained());
        assertEquals(1, r.notJudged().size());
        var u = r.notJudged().get(0);
        assertEquals(List.of("scope trials:read"), u.missing());
        assertEquals(4, u.requests());
        assertTrue(u.mayGain());
    }

    @Test
    void theRecordedDecisionUnderARevisionAtHandRulesOutTheWaysItContradicts() {
        PolicySet current = set(PI_TRIALS);
        // The scope no longer asked for: PIs read trials with it or without it.
        PolicySet proposed = set(PI_TRIALS.replace("    when: {scopes: [trials:read]}\n", ""));
        var facts = List.of(
                // Refused under the current set: the token lacked the scope (with it, the set allows), so the proposal gains it.
                fact("paula", "pi", "file:///docs/trials/t1/summary.md", "DENY", current.revision(), 7, "r1"),
                // Allowed under the current set: the token held the scope, and the proposal allows it as well.
                fact("paula", "pi", "file:///docs/trials/t2/summary.md", "ALLOW", current.revision(), 40, "r2"));

        var r = report(current, proposed, facts);

        assertEquals(List.of(), r.notJudged());
        assertEquals(1, r.gained().size());
        assertEquals(7, r.gained().get(0).requests());
        assertEquals("file:///docs/trials/t1/summary.md", r.gained().get(0).uri());
        assertEquals(0, r.check().mismatched());
    }

    @Test
    void aRuleOnAScopeTheRecordLacksIsJudgedWhenTheTwoWaysAgree() {
        // Trial x is closed to PIs now (whatever their scopes); the proposal opens it to every PI, scope or not.
        PolicySet current = set(PI_TRIALS + CLOSED_TRIAL);
        PolicySet proposed = set(PI_TRIALS + """
                  - id: trial-x-open
                    effect: allow
                    actions: [read]
                    resources: ["file:///docs/trials/x/**"]
                    subjects: {roles: [pi]}
                """);
        var facts = List.of(fact("paula", "pi", "file:///docs/trials/x/summary.md", "DENY", current.revision(), 2, "r1"));

        var r = report(current, proposed, facts);

        assertEquals(List.of(), r.notJudged());
        assertEquals(1, r.gained().size());
        assertEquals(List.of("closed-trial"), r.gained().get(0).rulesBefore());
    }

    @Test
    void listingsAreCountedNotJudged() {
        PolicySet current = set(STAFF_READ);
        var listing = new Fact("dave", null, null, List.of("staff"), "list", "file:///docs", "10.1.2.3", HOUR,
                current.revision(), "FILTER", 12, List.of());

        var r = report(current, set(NO_SECRETS), List.of(listing));

        assertEquals(12, r.summary().listingRecords());
        assertEquals(1, r.summary().listingFacts());
        assertEquals(List.of(), r.lost());
        assertTrue(ReportMarkdown.render(r).contains("12 listings are not judged per entry"));
    }

    @Test
    void aRecordedDecisionTheRevisionDoesNotGiveIsAMismatch() {
        PolicySet current = set(STAFF_READ);
        var r = report(current, current, List.of(
                fact("dave", "staff", "file:///docs/x.md", "DENY", current.revision(), 3, "r1"),
                fact("dave", "staff", "file:///docs/y.md", "ALLOW", "0".repeat(64), 2, "r2")));

        assertEquals(3, r.check().mismatched());
        assertEquals(2, r.check().withoutRevision());
        assertEquals(List.of("0".repeat(64)), r.check().missingRevisions());
    }

    @Test
    void aTimeWindowEdgeInsideTheHourLeavesTheFactNotJudged() {
        String window = """
                  - id: night-reads
                    effect: allow
                    actions: [read]
                    resources: ["file:///docs/**"]
                    subjects: {roles: [oncall]}
                    when: {timeWindow: {from: "09:30", to: "18:00", zone: UTC}}
                """;
        PolicySet current = set(STAFF_READ);
        var r = report(current, set(STAFF_READ + window), List.of(
                fact("olga", "oncall", "file:///docs/x.md", "DENY", current.revision(), 1, "r1"),
                new Fact("olga", null, null, List.of("oncall"), "read", "file:///docs/y.md", "10.1.2.3",
                        HOUR.plusSeconds(3600), current.revision(), "DENY", 1, List.of("r2"))));

        assertEquals(List.of("time within the hour"), r.notJudged().get(0).missing());
        assertEquals("file:///docs/x.md", r.notJudged().get(0).uri());
        assertEquals(1, r.gained().size(), "10:00-11:00 lies inside the window throughout");
        assertEquals("file:///docs/y.md", r.gained().get(0).uri());
    }

    @Test
    void aHashedSourceAddressIsUnknownOnlyWhereANetworkRuleCouldDecide() {
        String fromTheWard = """
                  - id: ward-reads
                    effect: allow
                    actions: [read]
                    resources: ["file:///docs/ward/**"]
                    subjects: {roles: [nurse]}
                    when: {sourceCidrs: [10.0.0.0/8]}
                """;
        PolicySet current = set(STAFF_READ);
        String hashed = "hmac:" + "ab".repeat(32);
        var r = report(current, set(STAFF_READ + fromTheWard), List.of(
                new Fact("nina", null, null, List.of("nurse"), "read", "file:///docs/ward/chart.md", hashed, HOUR,
                        current.revision(), "DENY", 2, List.of()),
                new Fact("sam", null, null, List.of("staff"), "read", "file:///docs/ward/chart.md", hashed, HOUR,
                        current.revision(), "ALLOW", 3, List.of())));

        assertEquals(1, r.notJudged().size());
        assertEquals("nina", r.notJudged().get(0).subject());
        assertEquals(List.of("source address (stored hashed)"), r.notJudged().get(0).missing());
        assertEquals(3, r.summary().unchangedRecords(), "no network rule decides for staff: judged");
    }
}
