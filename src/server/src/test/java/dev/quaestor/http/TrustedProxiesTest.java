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
    void anEntryThatNamesNoAddressStopsAtTheProxyThatWroteIt() {
        assertEquals(INGRESS, INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5, unknown")));
        assertEquals(INGRESS, INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5, intranet.example.org")));
        assertEquals(INGRESS, INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5, ")));
        // Only the configured header is read: the client's own Forwarded passes the ingress unread.
        assertEquals(INGRESS, INGRESS_XFF.client(INGRESS, headers("Forwarded", "for=10.20.0.5")));
    }

    @Test
    void forwardedIsReadByItsForParameterQuotedBracketedAndWithPorts() {
        assertEquals("198.51.100.4", INGRESS_FORWARDED.client(INGRESS,
                headers("Forwarded", "for=10.20.0.5, for=198.51.100.4;proto=https;by=10.42.0.7")));
        assertEquals("2001:db8:cafe:0:0:0:0:17", INGRESS_FORWARDED.client(INGRESS,
                headers("Forwarded", "for=10.20.0.5, For=\"[2001:db8:cafe::17]:4711\"")));
        assertEquals("198.51.100.4", INGRESS_FORWARDED.client("2001:db8:42:0:0:0:0:1",
                headers("Forwarded", "for=\"198.51.100.4:5555\"")));
        assertEquals(INGRESS, INGRESS_FORWARDED.client(INGRESS, headers("Forwarded", "for=10.20.0.5, for=_hidden")));
        assertEquals(INGRESS, INGRESS_FORWARDED.client(INGRESS, headers("Forwarded", "proto=https")));
        assertEquals(INGRESS, INGRESS_FORWARDED.client(INGRESS, headers("X-Forwarded-For", "10.20.0.5")));
    }

    @Test
    void onlyLiteralsAreReadNeverANameToLookUp() {
        assertNull(TrustedProxies.address("localhost"));
        assertNull(TrustedProxies.address("ab.cd.ef.01"));
        assertNull(TrustedProxies.address("[::1"));
        assertEquals("0:0:0:0:0:0:0:1", TrustedProxies.address("[::1]:80"));
        assertEquals("192.0.2.1", TrustedProxies.address("192.0.2.1:8080"));
    }

    @Test
    void aLongHeaderIsReadOnlyAsFarAsItsLastHops() {
        var hops = new StringBuilder("10.20.0.5");
        for (int i = 0; i < 100; i++) {
            hops.append(", 10.42.1.").append(i % 250);
        }
        // Every hop read is a trusted proxy: the walk stops at the last one it may read, never reaching the client's.
        String client = INGRESS_XFF.client(INGRESS, headers("X-Forwarded-For", hops.toString()));
        assertTrue(client.startsWith("10.42.1."), client);
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
