package dev.quaestor.identity;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class AddressBlockTest {

    @Test
    void anIpv6AddressCountsByItsSixtyFour() {
        assertEquals("2001:db8:1:2::/64", AddressBlock.of("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
        assertEquals(AddressBlock.of("2001:db8:1:2::1"), AddressBlock.of("2001:0db8:0001:0002:ffff:0:0:7"));
        assertEquals(AddressBlock.of("2001:db8:1:2::1"), AddressBlock.of("[2001:db8:1:2::9]"));
        assertNotEquals(AddressBlock.of("2001:db8:1:2::1"), AddressBlock.of("2001:db8:1:3::1"));
        assertEquals("0:0:0:0::/64", AddressBlock.of("::1"));
    }

    @Test
    void anIpv4AddressAndAMappedOneCountAlone() {
        assertEquals("192.0.2.7", AddressBlock.of("192.0.2.7"));
        assertEquals("192.0.2.7", AddressBlock.of("::ffff:192.0.2.7"));
        assertNotEquals(AddressBlock.of("::ffff:192.0.2.7"), AddressBlock.of("::ffff:192.0.2.8"));
    }

    @Test
    void whatIsNotAnAddressIsItsOwnKey() {
        assertNull(AddressBlock.of(null));
        assertEquals("unknown", AddressBlock.of("unknown"));
        assertEquals("not:an:address:at:all", AddressBlock.of("not:an:address:at:all"));
    }
}
