package dev.quaestor.subscription;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which list changes a holder hears of: named entries it may list, and mount-wide changes only if it may list all. */
class ListChangeJudgeTest {

    private static final CanonicalUri MOUNT = uri("file:///t");
    private static final PolicySet POLICY = PolicyLoader.parse(List.of(Map.entry("p.yaml", """
            apiVersion: quaestor/v1
            kind: Policy
            rules:
              - {id: bob-open, effect: allow, actions: [list], resources: ["file:///t/open/**"], subjects: {subjects: [bob]}}
              - {id: bob-not-secret, effect: deny, actions: [list], resources: ["file:///t/secret/**"], subjects: {subjects: [bob]}}
              - {id: ann-all, effect: allow, actions: [list], resources: ["file:///t/**"], subjects: {subjects: [ann]}}
            """)), new ArrayList<>());

    private static CanonicalUri uri(String s) {
        return UriCanonicalizer.canonicalize(s);
    }

    private static Subscriber who(String subject) {
        return new Subscriber(new Identity(subject, null, null, Set.of(), Set.of(), Set.of()), "10.0.0.1");
    }

    private static PendingListChanges.Window window(List<String> entries, boolean wholeMount) {
        return new PendingListChanges.Window(entries.stream().map(ListChangeJudgeTest::uri).toList(),
                wholeMount ? List.of(MOUNT) : List.of());
    }

    @Test
    void aNamedEntryCountsOnlyWhereTheHolderMayListIt() {
        assertNull(ListChangeJudge.firstVisible(POLICY, who("bob"), window(List.of("file:///t/secret/x.txt"), false)));
        var seen = ListChangeJudge.firstVisible(POLICY, who("bob"),
                window(List.of("file:///t/secret/x.txt", "file:///t/open/y.txt"), false));
        assertNotNull(seen);
        assertEquals(uri("file:///t/open/y.txt"), seen.uri(), "recorded under the entry it may list");
        assertEquals(List.of("bob-open"), seen.rules());
    }

    @Test
    void aMountWideChangeCountsOnlyForAHolderWhoMayListTheWholeMount() {
        assertNull(ListChangeJudge.firstVisible(POLICY, who("bob"), window(List.of(), true)),
                "allowed somewhere in the mount is not enough");
        var seen = ListChangeJudge.firstVisible(POLICY, who("ann"), window(List.of(), true));
        assertNotNull(seen, "ann may list the whole mount");
        assertEquals(MOUNT, seen.uri());
        assertNull(ListChangeJudge.firstVisible(POLICY, who("carol"), window(List.of(), true)));
    }

    @Test
    void pendingEntriesAreBoundedAndAnOverflowIsKeptForTheWholeMount() {
        var pending = new PendingListChanges(2);
        assertTrue(pending.entry(MOUNT, uri("file:///t/open/a")));
        assertTrue(pending.entry(MOUNT, uri("file:///t/open/b")));
        assertTrue(pending.entry(MOUNT, uri("file:///t/open/a")), "an entry already waiting fits");
        assertFalse(pending.entry(MOUNT, uri("file:///t/open/c")));
        assertTrue(pending.entry(MOUNT, uri("file:///elsewhere/d")), "outside its mount: kept for the whole mount");
        var w = pending.drain();
        assertEquals(Set.of(uri("file:///t/open/a"), uri("file:///t/open/b")), Set.copyOf(w.entries()));
        assertEquals(List.of(MOUNT), w.wholeMounts());
        assertTrue(pending.drain().isEmpty(), "a drain takes everything");
    }
}
