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
        assertTrue(assertThrows(PolicyValidationException.class, () -> set("{timeWindow: {from: \"8am\", to: \"18:00\", zone: UTC}}")).getMessage()
                .contains("time of day must look like 08:00"));
        assertTrue(assertThrows(PolicyValidationException.class, () -> set("{timeWindow: {from: \"08:00\", to: \"18:00\", zone: Mars/Olympus}}")).getMessage()
                .contains("unknown time zone"));
        assertTrue(assertThrows(PolicyValidationException.class, () -> set("{timeWindow: {days: [funday], from: \"08:00\", to: \"18:00\", zone: UTC}}")).getMessage()
                .contains("unknown day 'funday'"));
    }
}
