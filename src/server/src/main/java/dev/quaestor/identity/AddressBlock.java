package dev.quaestor.identity;

import io.netty.util.NetUtil;

/**
 * The key per-address budgets and places are counted under: an IPv4 address as it is, an IPv6 address by its /64.
 * A single IPv6 host is usually given a whole /64 and can send from any address in it, so counting each address
 * alone would give one sender 2^64 budgets. An IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}) counts as its IPv4
 * address (its /64 would hold every IPv4 client of a dual-stack socket). Anything that is not an address literal
 * (null, {@code unknown}) is its own key. Parsing never looks a name up.
 */
public final class AddressBlock {

    private AddressBlock() {
    }

    public static String of(String address) {
        if (address == null || address.indexOf(':') < 0) {
            return address; // IPv4, or no address
        }
        byte[] b = NetUtil.createByteArrayFromIpAddressString(address);
        if (b == null || b.length != 16) {
            return address;
        }
        if (mappedIpv4(b)) {
            return (b[12] & 0xff) + "." + (b[13] & 0xff) + "." + (b[14] & 0xff) + "." + (b[15] & 0xff);
        }
        var key = new StringBuilder(24);
        for (int i = 0; i < 8; i += 2) {
            key.append(Integer.toHexString(((b[i] & 0xff) << 8) | (b[i + 1] & 0xff))).append(':');
        }
        return key.append(":/64").toString();
    }

    private static boolean mappedIpv4(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }
}
