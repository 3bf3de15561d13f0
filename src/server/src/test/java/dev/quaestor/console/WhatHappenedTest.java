package dev.quaestor.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.audit.record.AuditRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The request page's one sentence tells how a request ended: by its last OUTCOME, after what a first one said. */
class WhatHappenedTest {

    private static long seq;

    private static RecordRow row(String kind, String... nameValue) {
        Map<String, String> f = new HashMap<>(Map.of("v", "2", "log", "test", "seq", Long.toString(++seq),
                "time", "2026-11-30T12:00:00.000001Z", "request", "r-1", "kind", kind, "action", "read",
                "uri", "file:///docs/a.md"));
        for (int i = 0; i < nameValue.length; i += 2) {
            f.put(nameValue[i], nameValue[i + 1]);
        }
        return new RecordRow(AuditRow.parse(seq, f::get));
    }

    private static final RecordRow ALLOWED = row("DECISION", "decision", "ALLOW", "rules", "docs-read");
    private static final RecordRow SERVED = row("OUTCOME", "outcome", "ok", "bytes", "512", "sha256", "ab".repeat(32));
    private static final RecordRow ABORTED = row("OUTCOME", "outcome", "aborted", "error", "-32005",
            "detail", "the audit log did not confirm this request's OUTCOME within the commit timeout");

    @Test
    void aRequestServedSaysWhatWasServed() {
        assertEquals("The policy allowed this read of file:///docs/a.md (rule docs-read), and 512 bytes were served"
                + " (their SHA-256 is below).", WhatHappened.of(ALLOWED, List.of(SERVED)));
    }

    /** A listing's OUTCOME has the SHA-256 of what was listed but no bytes: it is told as a listing, not as bytes served. */
    @Test
    void aListingSaysHowManyItemsWereListedNotBytesServed() {
        RecordRow filter = row("DECISION", "decision", "FILTER", "action", "list", "uri", null);
        RecordRow listed = row("OUTCOME", "outcome", "ok", "action", "list", "uri", null, "items", "3", "sha256", "cd".repeat(32));
        String story = WhatHappened.of(filter, List.of(listed));
        assertTrue(story.endsWith("it was done: 3 item(s) listed (the SHA-256 of what was listed is below)."), story);
        assertTrue(listed.hasListedDigest() && !listed.hasServedBytes());
        assertTrue(SERVED.hasServedBytes() && !SERVED.hasListedDigest());
    }

    @Test
    void aLaterOutcomeOverridesTheFirstAndTheSentenceSaysBoth() {
        String story = WhatHappened.of(ALLOWED, List.of(SERVED, ABORTED));
        assertEquals("The policy allowed this read of file:///docs/a.md (rule docs-read), and its first outcome said: 512"
                + " bytes were served (their SHA-256 is below), but then: aborted: the answer was cut off, did not reach the"
                + " client, or was refused after its record (see its detail) (error -32005).", story);
    }

    @Test
    void anAbortedOutcomeAloneIsHowTheRequestEnded() {
        assertEquals("The policy allowed this read of file:///docs/a.md (rule docs-read), but then: aborted: the answer was"
                + " cut off, did not reach the client, or was refused after its record (see its detail) (error -32005).",
                WhatHappened.of(ALLOWED, List.of(ABORTED)));
        assertEquals("The policy allowed this read of file:///docs/a.md (rule docs-read); no outcome is on record.",
                WhatHappened.of(ALLOWED, List.of()));
    }

    /** A request refused at the door is not told as the policy's refusal: the policy was never asked. */
    @Test
    void aRefusalBeforeThePolicyIsNotToldAsThePolicys() {
        RecordRow invalid = row("DECISION", "decision", "DENY", "outcome", "invalid-uri", "error", "-32602", "uri", "=1+2");
        assertEquals("This read of =1+2 was refused before the policy was asked: invalid-uri: refused: not a URI; the policy"
                + " was not asked (error -32602).", WhatHappened.of(invalid, List.of()));
        RecordRow capped = row("DECISION", "decision", "DENY", "outcome", "cap:body-timeout", "action", null, "uri", null);
        assertTrue(WhatHappened.of(capped, List.of()).startsWith("This request was refused before the policy was asked: cap:body-timeout"),
                WhatHappened.of(capped, List.of()));
        // A refusal at the door with the caller's bucket empty: recorded as the rate limit's, with no action.
        RecordRow doorLimited = row("DECISION", "decision", "DENY", "outcome", "rate-limited", "error", "-32004",
                "action", null, "uri", null);
        assertEquals("This request was refused before the policy was asked: rate-limited: refused: the rate limit was"
                + " reached; nothing served (error -32004).", WhatHappened.of(doorLimited, List.of()));
        RecordRow doorUnlimited = row("DECISION", "decision", "DENY", "outcome", "rate-limit-unavailable", "error", "-32005",
                "action", null, "uri", null);
        assertTrue(WhatHappened.of(doorUnlimited, List.of()).startsWith("This request was refused before the policy was asked"),
                WhatHappened.of(doorUnlimited, List.of()));
        // Refused at the door for what it asked (a read with a URI that has no canonical form, headers that differ
        // from its body): it paid for a read, so it names the action, and its detail says the policy was not asked.
        RecordRow doorRead = row("DECISION", "decision", "DENY", "outcome", "rate-limited", "error", "-32004",
                "detail", "limit per-user; the policy was not asked");
        assertEquals("This read of file:///docs/a.md was refused before the policy was asked: rate-limited: refused: the rate"
                + " limit was reached; nothing served (error -32004).", WhatHappened.of(doorRead, List.of()));
        // Not judged by the policy at all (removing one's own subscription), its bucket empty.
        RecordRow unsubscribe = row("DECISION", "decision", "ALLOW", "action", "subscribe", "outcome", "rate-limited",
                "error", "-32004", "detail", "limit per-user; the policy was not asked");
        assertTrue(WhatHappened.of(unsubscribe, List.of()).startsWith("This subscribe of file:///docs/a.md was refused before"
                + " the policy was asked"), WhatHappened.of(unsubscribe, List.of()));
        // A listing refused by the limit before any of its entries was judged.
        RecordRow listing = row("DECISION", "decision", "FILTER", "action", "list", "uri", "file:///docs/", "outcome",
                "rate-limited", "error", "-32004", "detail", "limit per-user; the policy was not asked");
        assertTrue(WhatHappened.of(listing, List.of()).startsWith("This list of file:///docs/ was refused before the policy"
                + " was asked: rate-limited"), WhatHappened.of(listing, List.of()));
        RecordRow policyLimited = row("DECISION", "decision", "DENY", "outcome", "rate-limited", "error", "-32004",
                "detail", "limit per-user");
        assertTrue(WhatHappened.of(policyLimited, List.of()).startsWith("The policy refused this read of file:///docs/a.md"),
                WhatHappened.of(policyLimited, List.of()));
        RecordRow policyAllowedLimited = row("DECISION", "decision", "ALLOW", "rules", "docs-read", "outcome", "rate-limited",
                "error", "-32004", "detail", "limit per-user");
        assertEquals("The policy allowed this read of file:///docs/a.md (rule docs-read), but it was rate-limited: refused:"
                + " the rate limit was reached; nothing served (error -32004).", WhatHappened.of(policyAllowedLimited, List.of()));
        RecordRow denied = row("DECISION", "decision", "DENY", "outcome", "refused", "error", "-32003");
        assertEquals("The policy refused this read of file:///docs/a.md (no rule allowed it: default deny): nothing was served"
                + " (error -32003).", WhatHappened.of(denied, List.of()));
    }
}
