package dev.quaestor.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.Repo;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExplainRequestTest {

    private static ExplainRequest asked(String sourceIp, Instant time) {
        return new ExplainRequest("olga", List.of("safety-officer-oncall"), List.of(), "cli", null, List.of("resources:read"),
                "read", "file:///docs/trials/onco-734/raw/sample-001.bin", sourceIp, time);
    }

    /** A rule with a CIDR and a time window answers by both: the record of the question must hold them to be replayed. */
    @Test
    void theRecordedQuestionHoldsTheSourceAddressAndTimeWhenGiven() {
        String d = asked("10.1.2.3", Instant.parse("2026-03-04T22:15:00Z")).describe();
        assertTrue(d.endsWith(" uri=file:///docs/trials/onco-734/raw/sample-001.bin sourceIp=10.1.2.3 time=2026-03-04T22:15:00Z"), d);
        String none = asked(null, null).describe();
        assertFalse(none.contains("sourceIp") || none.contains("time="), none);
    }

    @Test
    void aSourceIpThatIsNotAnAddressIsRefusedNamingTheField() throws Exception {
        PolicySet set = PolicyLoader.load(Repo.POLICIES);
        for (String bad : List.of("not-an-ip", "999.1.1.1", "", "localhost")) {
            var e = assertThrows(IllegalArgumentException.class, () -> asked(bad, null).answer(set), bad);
            assertEquals("sourceIp must be an IPv4 or IPv6 address, not '" + bad + "'", e.getMessage());
        }
        // The hospital network at night, as an IPv4 literal and as its IPv4-mapped IPv6 form.
        var night = Instant.parse("2026-03-04T22:15:00Z");
        for (String ip : List.of("10.20.30.40", "::ffff:10.20.30.40")) {
            var summary = new ExplainRequest("olga", List.of("safety-officer-oncall"), List.of(), null, null, List.of(),
                    "read", "file:///docs/trials/onco-734/summary.md", ip, night);
            assertEquals("allow", summary.answer(set).decision(), ip);
        }
    }
}
