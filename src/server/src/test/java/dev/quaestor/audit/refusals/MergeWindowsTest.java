package dev.quaestor.audit.refusals;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.audit.record.UriTally;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.Wait;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The parts of a summary of refusals on their own: what a window counts (exact count, first and last time, the URI
 * sample and what it leaves out, the fields all its refusals shared), which refusals share a window, and that each
 * window is written once.
 */
class MergeWindowsTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    private static AuditEvent refusal(String subject, String session, String uri, String outcome, int error, Instant at) {
        var caller = new Caller(subject, "cli", "acme", List.of("clinician"), "10.0.0.1", "agent/1", session, null, null, null);
        return AuditEvent.of(AuditEvent.Kind.DECISION, RequestIds.next()).time(at).caller(caller).protocol("2025-06-18")
                .method("resources/read").action("read").uri(uri).decision("DENY").rules(List.of("no-raw"))
                .policyRevision("rev").outcome(outcome).errorCode(error).build();
    }

    @Test
    void aTallyTakesThirtyTwoUrisAndRefusesAThirtyThirdRatherThanLeaveItOut() {
        var t = new UriTally();
        for (int i = 0; i < 32; i++) {
            assertTrue(t.takes("file:///x/" + i));
            t.add("file:///x/" + i);
        }
        assertTrue(!t.takes("file:///x/32"), "full: a new URI goes to the next summary");
        assertTrue(t.takes("file:///x/3"), "a URI it holds is still counted");
        assertTrue(t.takes(null), "so is a refusal naming none");
        t.add("file:///x/3");
        t.add(null);
        String[] lines = t.lines().split("\n");
        assertEquals(32, lines.length);
        assertEquals("1 file:///x/0", lines[0]);
        assertEquals("2 file:///x/3", lines[3]);
        assertEquals(1, t.more(), "only the refusal naming no URI");
        long sampled = 0;
        for (String l : lines) {
            sampled += Long.parseLong(l.substring(0, l.indexOf(' ')));
        }
        assertEquals(34, sampled + t.more(), "every refusal counted once");
        assertEquals("file:///a\uFFFDb\uFFFD", UriTally.recorded("file:///a\nb\u0007"), "one line per URI");
        assertEquals(UriTally.MAX_URI, UriTally.recorded("file:///" + "y".repeat(5000)).length());
        assertNull(new UriTally().lines());
    }

    @Test
    void decoysThatFillAWindowsUriListCloseItAndTheProbeOpensTheNextWhichNamesIt() throws Exception {
        List<MergeWindows.Window> written = new CopyOnWriteArrayList<>();
        var timer = Executors.newSingleThreadScheduledExecutor();
        var windows = new MergeWindows(Duration.ofSeconds(1), 10, written::add, timer);
        var decoys = new java.util.HashSet<String>();
        for (int i = 0; i < 32; i++) {
            decoys.add(windows.join(refusal("mallory", "s1", "file:///docs/public/decoy-" + i, "refused", -32003, T0)).requestId);
        }
        assertEquals(1, decoys.size(), "the decoys share one window");
        var probe = windows.join(refusal("mallory", "s1", "file:///docs/secret/plan.md", "refused", -32003, T0));
        assertTrue(!decoys.contains(probe.requestId), "the probe is counted in another summary");
        assertEquals(1, written.size(), "the full window was written at once, not at its end");
        AuditEvent first = written.get(0).close(false);
        assertEquals(32L, first.count());
        assertEquals(0L, first.urisMore());
        var again = windows.join(refusal("mallory", "s1", "file:///docs/public/decoy-1", "refused", -32003, T0));
        assertSame(probe, again, "the next window counts on, whatever URI");
        AuditEvent second = probe.close(false);
        assertEquals("1 file:///docs/secret/plan.md\n1 file:///docs/public/decoy-1", second.uris(), "the probe is named");
        assertEquals(1, windows.openWindows());
        windows.closeAll();
        timer.shutdownNow();
    }

    @Test
    void aSummaryKeepsWhatItsRefusalsSharedAndSaysWhatItLeftOut() {
        var s = new RefusalSummary(refusal("mallory", "s1", "file:///a", "refused", -32003, T0.plusMillis(200)));
        s.add(refusal("mallory", "s2", "file:///b", "refused", -32003, T0));
        s.add(refusal("mallory", "s1", "file:///a", "refused", -32003, T0.plusMillis(900)));
        AuditEvent e = s.toEvent("summary-1", false);
        assertEquals(AuditEvent.Kind.ATTEMPT_SUMMARY, e.kind());
        assertEquals("summary-1", e.requestId());
        assertEquals(3L, e.count());
        assertEquals(T0, e.first());
        assertEquals(T0.plusMillis(900), e.last());
        assertEquals("2 file:///a\n1 file:///b", e.uris());
        assertEquals(0L, e.urisMore());
        assertEquals("mallory", e.caller().subject());
        assertEquals("cli", e.caller().client());
        assertEquals("acme", e.caller().tenant());
        assertEquals("10.0.0.1", e.caller().sourceIp());
        assertNull(e.caller().sessionId(), "the sessions differed");
        assertNull(e.uri(), "the URIs differed");
        assertEquals("resources/read", e.method());
        assertEquals("DENY", e.decision());
        assertEquals(List.of("no-raw"), e.rules());
        assertEquals(-32003, e.errorCode());
        assertEquals("refused", e.outcome());
        assertTrue(e.detail().endsWith("left out where they differed: session, uri"), e.detail());
    }

    @Test
    void refusalsShareAWindowByKeyAndEachWindowIsWrittenOnce() throws Exception {
        List<MergeWindows.Window> written = new CopyOnWriteArrayList<>();
        var timer = Executors.newSingleThreadScheduledExecutor();
        var windows = new MergeWindows(Duration.ofMillis(300), 2, written::add, timer);
        var a1 = windows.join(refusal("mallory", "s1", "file:///a", "refused", -32003, T0));
        var a2 = windows.join(refusal("mallory", "s2", "file:///b", "refused", -32003, T0));
        var invalid = windows.join(refusal("mallory", "s1", "bad", "refused", -32602, T0));
        var limited = windows.join(refusal("mallory", "s1", "file:///a", "rate-limited", -32004, T0));
        assertSame(a1, a2, "same subject, client and reason: one window");
        assertNotEquals(a1.requestId, invalid.requestId, "another error code is another reason");
        assertNull(limited, "no more windows than the bound: the caller fails closed");
        assertEquals(2, windows.openWindows());
        Wait.holdsWithin(Duration.ofSeconds(10), () -> written.size() >= 2);
        assertEquals(2, written.size(), "each window closes by itself");
        assertEquals(2, a1.close(false).count());
        var later = windows.join(refusal("mallory", "s1", "file:///a", "refused", -32003, T0));
        assertNotEquals(a1.requestId, later.requestId, "a refusal after the window closed opens the next one");
        windows.closeAll();
        // The timer runs one task at a time in the order they are due: once a task due after the closed
        // window's own end has run, that window's timer has run too.
        timer.schedule(() -> null, 300, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        assertEquals(3, written.size(), "closed at shutdown, and not again by its timer");
        var afterStop = windows.join(refusal("mallory", "s1", "file:///a", "refused", -32003, T0));
        Wait.holdsWithin(Duration.ofSeconds(10), Duration.ofMillis(5), () -> written.size() >= 4);
        assertSame(afterStop, written.get(3), "once stopping, a window closes at once");
        timer.shutdownNow();
    }

    @Test
    void anAttemptLimitIsPerSubject() {
        var limit = new AttemptLimit(2, Duration.ofHours(1));
        assertTrue(limit.recordsOnItsOwn("a"));
        assertTrue(limit.recordsOnItsOwn("a"));
        assertTrue(!limit.recordsOnItsOwn("a"), "past the limit");
        assertTrue(limit.recordsOnItsOwn("b"), "another subject has its own");
        assertTrue(!limit.recordsOnItsOwn(null), "no subject: always merged");
    }
}
