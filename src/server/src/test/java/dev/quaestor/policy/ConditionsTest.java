package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.UriCanonicalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConditionsTest {

    private static final Identity WHO = new Identity("u", null, null, Set.of("oncall"), Set.of(), Set.of());

    private static PolicySet set(String when) {
        return PolicyLoader.parse(List.of(Map.entry("c.yaml", "apiVersion: quaestor/v1\nkind: Policy\nrules:\n"
                + "  - {id: c, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [oncall]}, when: " + when + "}\n")),
                new ArrayList<>());
    }

    private static boolean allowed(PolicySet s, String ip, String time) {
        return s.decide(WHO, Action.READ, UriCanonicalizer.canonicalize("file:///x"), new Facts(ip, Instant.parse(time))).allowed();
    }

    @Test
    void sourceCidrs() {
        var s = set("{sourceCidrs: [10.0.0.0/8, \"2001:db8::/32\", 192.168.1.7]}");
        assertTrue(allowed(s, "10.200.3.4", "2026-01-01T00:00:00Z"));
        assertTrue(allowed(s, "2001:db8::1", "2026-01-01T00:00:00Z"));
        assertTrue(allowed(s, "192.168.1.7", "2026-01-01T00:00:00Z"));
        assertTrue(allowed(s, "::ffff:10.1.1.1", "2026-01-01T00:00:00Z"));
        assertFalse(allowed(s, "11.0.0.1", "2026-01-01T00:00:00Z"));
        assertFalse(allowed(s, "192.168.1.8", "2026-01-01T00:00:00Z"));
        assertFalse(allowed(s, null, "2026-01-01T00:00:00Z"), "no address, no access");
        assertFalse(allowed(s, "evil.example.com", "2026-01-01T00:00:00Z"));
    }

    @Test
    void timeWindowInItsZone() {
        var s = set("{timeWindow: {days: [mon, tue, wed, thu, fri], from: \"08:00\", to: \"18:00\", zone: Europe/Zurich}}");
        assertTrue(allowed(s, "1.1.1.1", "2026-03-04T07:30:00Z"), "Wednesday 08:30 in Zurich");
        assertFalse(allowed(s, "1.1.1.1", "2026-03-04T06:30:00Z"), "07:30 in Zurich");
        assertFalse(allowed(s, "1.1.1.1", "2026-03-04T17:00:00Z"), "18:00 is outside");
        assertFalse(allowed(s, "1.1.1.1", "2026-03-07T10:00:00Z"), "Saturday");
    }

    @Test
    void overnightWindowCountsTheDayItStarted() {
        var s = set("{timeWindow: {days: [fri], from: \"22:00\", to: \"06:00\", zone: UTC}}");
        assertTrue(allowed(s, "1.1.1.1", "2026-03-06T23:00:00Z"), "Friday 23:00");
        assertTrue(allowed(s, "1.1.1.1", "2026-03-07T05:00:00Z"), "Saturday 05:00 belongs to Friday night");
        assertFalse(allowed(s, "1.1.1.1", "2026-03-07T23:00:00Z"), "Saturday night");
        assertFalse(allowed(s, "1.1.1.1", "2026-03-06T05:00:00Z"), "Friday 05:00 belongs to Thursday night");
    }

    @Test
    void badConditionsAreRejectedWithTheirLine() {
        var e = assertThrows(PolicyValidationException.class, () -> set("{sourceCidrs: [10.0.0.0/33]}")).errors().get(0);
        assertTrue(e.toString().startsWith("c.yaml:4: rule 'c': '10.0.0.0/33' has an invalid prefix length"), e.toString());
        assertTrue(assertThrows(PolicyValidationException.class, () -> set("{sourceCidrs: [intranet.example.com]}")).getMessage()
                .contains("not an IP address"));
        for (String hexLooking : new String[] {"ad.be.ef.ca", "10.0.0.1e", "0x0a.0.0.1"}) {
            assertTrue(assertThrows(PolicyValidationException.class, () -> set("{sourceCidrs: [\"" + hexLooking + "\"]}"))
                    .getMessage().contains("not an IP address"), hexLooking);
        }
        assertTrue(assertThrows(PolicyValidationException.class, () -> set("{timeWindow: {from: \"8am\", to: \"18:00\", zone: UTC}}")).getMessage()
                .contains("time of day must look like 08:00"));
        assertTrue(assertThrows(PolicyValidationException.class, () -> set("{timeWindow: {from: \"08:00\", to: \"18:00\", zone: Mars/Olympus}}")).getMessage()
                .contains("unknown time zone"));
        assertTrue(assertThrows(PolicyValidationException.class, () -> set("{timeWindow: {days: [funday], from: \"08:00\", to: \"18:00\", zone: UTC}}")).getMessage()
                .contains("unknown day 'funday'"));
    }

    /** A set allowing everything to the on-call role, and denying it where {@code when} holds. */
    private static PolicySet denyWhen(String when) {
        return PolicyLoader.parse(List.of(Map.entry("c.yaml", "apiVersion: quaestor/v1\nkind: Policy\nrules:\n"
                + "  - {id: all, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [oncall]}}\n"
                + "  - {id: d, effect: deny, actions: [read], resources: [\"**\"], subjects: {roles: [oncall]}, when: " + when + "}\n")),
                new ArrayList<>());
    }

    private static boolean allowedAt(PolicySet s, String ip, Instant time) {
        return s.decide(WHO, Action.READ, UriCanonicalizer.canonicalize("file:///x"), new Facts(ip, time)).allowed();
    }

    /** An unknown source address or time never opens access, and never lets a request past a deny that names it. */
    @Test
    void anUnknownFactHoldsForADenyAndNotForAnAllow() {
        Instant noon = Instant.parse("2026-01-01T12:00:00Z");
        var denyFromNetwork = denyWhen("{sourceCidrs: [10.0.0.0/8]}");
        assertFalse(allowedAt(denyFromNetwork, "10.1.2.3", noon));
        assertTrue(allowedAt(denyFromNetwork, "192.0.2.1", noon));
        assertFalse(allowedAt(denyFromNetwork, null, noon), "no address: the deny applies");
        assertFalse(allowedAt(denyFromNetwork, "unknown", noon), "not an address: the deny applies");
        var denyAtNight = denyWhen("{timeWindow: {from: \"18:00\", to: \"08:00\", zone: UTC}}");
        assertTrue(allowedAt(denyAtNight, "192.0.2.1", noon));
        assertFalse(allowedAt(denyAtNight, "192.0.2.1", null), "no time: the deny applies");
        // The allow side is as before: an unknown fact does not make its condition hold.
        assertFalse(allowedAt(set("{sourceCidrs: [10.0.0.0/8]}"), null, noon));
        assertFalse(allowedAt(set("{timeWindow: {from: \"00:00\", to: \"23:59\", zone: UTC}}"), "10.1.2.3", null));
    }
}
