package dev.quaestor.http;

import dev.quaestor.policy.Cidr;
import io.vertx.core.MultiMap;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A forwarding header is read from the right, each hop believed only while the one after it is a trusted proxy;
 * with no trusted proxies nothing is read, and Quarkus's own forwarding, which believes anyone, keeps the server from
 * starting.
 */
class TrustedProxiesTest {

    private static final String INGRESS = "10.42.0.7";
    private static final TrustedProxies INGRESS_XFF = new TrustedProxies(List.of(Cidr.parse("10.42.0.0/16")),
            ForwardedConfig.Header.X_FORWARDED_FOR);
    private static final TrustedProxies INGRESS_FORWARDED = new TrustedProxies(
            List.of(Cidr.parse("10.42.0.0/16"), Cidr.parse("2001:db8:42::/48")), ForwardedConfig.Header.FORWARDED);

    private static MultiMap headers(String... nameValue) {
        MultiMap m = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < nameValue.length; i += 2) {
            m.add(nameValue[i], nameValue[i + 1]);
        }
        return m;
    }

    @Test
    void withNoTrustedProxiesNoHeaderIsBelieved() {
        var h = headers("X-Forwarded-For", "10.20.0.5", "Forwarded", "for=10.20.0.5");
        assertEquals("203.0.113.9", TrustedProxies.NONE.client("203.0.113.9", h));
        assertEquals(INGRESS, TrustedProxies.NONE.client(INGRESS, h));
    }

    @Test
    void aHeaderFromAPeerThatIsNotATrustedProxyIsIgnored() {
        assertEquals("203.0.113.9", INGRESS_XFF.client("203.0.113.9", headers("X-Forwarded-For", "10.20.0.5")));
    }

    @Test
    void theClientIsTheRightMostHopThatIsNotATrustedProxyWhateverTheClientWroteToItsLeft() {
        // The client sent "X-Forwarded-For: 10.20.0.5"; the ingress appended the address it saw.
        assertEquals("198.51.100.4", INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5, 198.51.100.4")));
        // Two trusted proxies in a row are walked through.
        assertEquals("198.51.100.4", INGRESS_XFF.client(INGRESS,
                headers("X-Forwarded-For", "10.20.0.5, 198.51.100.4, 10.42.3.3")));
        // Several header lines are one list, in order.
        assertEquals("198.51.100.4", INGRESS_XFF.client(INGRESS,
                headers("X-Forwarded-For", "10.20.0.5", "X-Forwarded-For", "198.51.100.4")));
        // A trusted proxy without the header is the client as far as anyone can tell.
        assertEquals(INGRESS, INGRESS_XFF.client(INGRESS, headers()));
    }

    @Test
    void anEntryThatNamesNoAddressLeavesTheClientUnknownNeverTheProxy() {
        assertNull(INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5, unknown")));
        assertNull(INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5, intranet.example.org")));
        assertNull(INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5, ")));
        assertNull(INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "")));
        // Only the configured header is read: the client's own Forwarded passes the ingress unread, and a request
        // that carries no forwarding header at all comes from the proxy itself.
        assertEquals(INGRESS, INGRESS_XFF.client(INGRESS, headers("Forwarded", "for=10.20.0.5")));
    }

    @Test
    void aQuoteAClientLeavesOpenInXForwardedForSwallowsNothingTheIngressAppends() {
        // Each client sent only what is left of ", 198.51.100.9"; the ingress appended its peer on the same line.
        for (String sent : List.of("[10.1.2.3]\"", "[2001:db8::5]\"", "203.0.113.66:\"", "\"", "\"10.1.2.3", "10.1.2.3 \"")) {
            assertEquals("198.51.100.9", INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", sent + ", 198.51.100.9")),
                    sent);
        }
        // Quotes are ordinary characters: a hop holding one names no address.
        assertNull(INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "198.51.100.9, \"10.42.0.9\"")));
    }

    @Test
    void aForwardedLineThatEndsInsideAQuotedStringIsOneHopThatNamesNoAddress() {
        // The client's open quote would swallow the element the ingress appends to the same line.
        assertNull(INGRESS_FORWARDED.client(INGRESS, headers("Forwarded", "for=10.1.2.3;x=\", for=198.51.100.9")));
        assertNull(INGRESS_FORWARDED.client(INGRESS, headers("Forwarded", "for=\"10.1.2.3, for=198.51.100.9")));
        // A quoted-pair does not end the quoted-string, and a backslash at the end leaves it open.
        assertNull(INGRESS_FORWARDED.client(INGRESS, headers("Forwarded", "for=\"x\\\", for=198.51.100.9")));
        assertNull(INGRESS_FORWARDED.client(INGRESS, headers("Forwarded", "for=10.1.2.3;x=\"\\")));
        // The malformed line stands where its hops would: a line the ingress wrote after it is still read.
        assertEquals("198.51.100.9", INGRESS_FORWARDED.client(INGRESS,
                headers("Forwarded", "for=10.1.2.3;x=\"", "Forwarded", "for=198.51.100.9")));
    }

    @Test
    void aCommaInsideAQuotedStringWithAQuotedPairSplitsNothing() {
        assertEquals(List.of("for=\"_a\\\",b\"", " for=198.51.100.9"),
                TrustedProxies.split("for=\"_a\\\",b\", for=198.51.100.9", ','));
        assertEquals("198.51.100.9", INGRESS_FORWARDED.client(INGRESS,
                headers("Forwarded", "for=\"_a\\\",b\", for=198.51.100.9")));
        // Nor does a semicolon: the for= parameter is the element's own, never one inside another's value.
        assertEquals("_x", TrustedProxies.forParameter("for=_x;ext=\"a;for=10.1.2.3\""));
        assertEquals("[2001:db8::1]:80", TrustedProxies.forParameter("for=\"[2001:db8::1]:\\80\""));
        // An element with two for= parameters names no address.
        assertEquals("", TrustedProxies.forParameter("for=198.51.100.9;for=10.1.2.3"));
    }

    @Test
    void forwardedIsReadByItsForParameterQuotedBracketedAndWithPorts() {
        assertEquals("198.51.100.4", INGRESS_FORWARDED.client(INGRESS,
                headers("Forwarded", "for=10.20.0.5, for=198.51.100.4;proto=https;by=10.42.0.7")));
        assertEquals("2001:db8:cafe:0:0:0:0:17", INGRESS_FORWARDED.client(INGRESS,
                headers("Forwarded", "for=10.20.0.5, For=\"[2001:db8:cafe::17]:4711\"")));
        assertEquals("198.51.100.4", INGRESS_FORWARDED.client("2001:db8:42:0:0:0:0:1",
                headers("Forwarded", "for=\"198.51.100.4:5555\"")));
        assertNull(INGRESS_FORWARDED.client(INGRESS, headers("Forwarded", "for=10.20.0.5, for=_hidden")));
        assertNull(INGRESS_FORWARDED.client(INGRESS, headers("Forwarded", "proto=https")));
        assertEquals(INGRESS, INGRESS_FORWARDED.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5")));
    }

    @Test
    void onlyLiteralsAreReadNeverANameToLookUp() {
        assertNull(TrustedProxies.address("localhost"));
        assertNull(TrustedProxies.address("ab.cd.ef.01"));
        assertNull(TrustedProxies.address("[::1"));
        assertEquals("0:0:0:0:0:0:0:1", TrustedProxies.address("[::1]:80"));
        assertEquals("0:0:0:0:0:0:0:1", TrustedProxies.address("[::1]"));
        assertEquals("2001:db8:0:0:0:0:0:5", TrustedProxies.address("2001:db8::5"));
        assertEquals("192.0.2.1", TrustedProxies.address("192.0.2.1:8080"));
        assertEquals("192.0.2.1", TrustedProxies.address(" 192.0.2.1 "));
    }

    @Test
    void anAddressFollowedByAnythingButAPortNamesNoAddress() {
        for (String hop : List.of("[::1]x", "[::1]:", "[::1]:123456", "[::1]\"", "[::1] :80", "[10.1.2.3]", "[10.1.2.3]\"",
                "192.0.2.1:", "192.0.2.1:\"", "192.0.2.1:80x", "192.0.2.1:123456", "192.0.2.1x", "192.0.2.1 80",
                "192.0.2.256", "192.0.2.01", "::1%eth0", "1:2", "[1:2]", ".:1:2", "\"192.0.2.1\"")) {
            assertNull(TrustedProxies.address(hop), hop);
        }
    }

    @Test
    void aHeaderCutWhileStillOnTrustedProxiesLeavesTheClientUnknownAndOneReadWholeNamesItsFirstHop() {
        var hops = new StringBuilder("10.20.0.5");
        for (int i = 0; i < 100; i++) {
            hops.append(", 10.42.1.").append(i % 250);
        }
        // Every hop that may be read is a trusted proxy: the client's is never reached, and no proxy stands in for it.
        assertNull(INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", hops.toString())));
        // Within the hops that may be read, the client's is found.
        String near = "198.51.100.4" + ", 10.42.1.1".repeat(TrustedProxies.MAX_HOPS - 1);
        assertEquals("198.51.100.4", INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", near)));
        // Every hop read, all of them trusted proxies: the left-most sent the request (a proxy of the cluster calling
        // through the ingress), as the trusted proxy after it wrote.
        assertEquals("10.42.3.3", INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.42.3.3")));
        assertEquals("10.42.3.3", INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.42.3.3, 10.42.1.1")));
        String all = "10.42.3.3" + ", 10.42.1.1".repeat(TrustedProxies.MAX_HOPS - 1);
        assertEquals("10.42.3.3", INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", all)));
        assertNull(INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.42.3.3, " + all)), "one hop more: unread");
    }

    @Test
    void theSettingTakesAddressesAndBlocksAndNamesItselfWhenAnEntryIsNeither() {
        ForwardedConfig ok = config(List.of("10.42.0.0/16", " 192.0.2.10 ", "2001:db8::/32"));
        assertEquals("198.51.100.4", TrustedProxies.of(ok).client("192.0.2.10", headers("X-Forwarded-For", "198.51.100.4")));
        var e = assertThrows(IllegalArgumentException.class, () -> TrustedProxies.of(config(List.of("ingress.local"))));
        assertTrue(e.getMessage().contains("quaestor.http.forwarded.trusted-proxies"), e.getMessage());
    }

    @Test
    void quarkusProxyForwardingKeepsTheServerFromStartingAndNamesTheSettingToUseInstead() {
        String problem = ForwardedAddresses.problem(true);
        assertNotNull(problem);
        assertTrue(problem.contains("quarkus.http.proxy.proxy-address-forwarding")
                && problem.contains("quaestor.http.forwarded.trusted-proxies"), problem);
        assertNull(ForwardedAddresses.problem(false));
    }

    private static ForwardedConfig config(List<String> proxies) {
        return new ForwardedConfig() {
            @Override
            public Optional<List<String>> trustedProxies() {
                return Optional.of(proxies);
            }

            @Override
            public Header header() {
                return Header.X_FORWARDED_FOR;
            }
        };
    }
}
