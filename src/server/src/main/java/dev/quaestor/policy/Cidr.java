package dev.quaestor.policy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** An IPv4 or IPv6 network in CIDR notation. Parsing never touches DNS: only literals are accepted. */
public record Cidr(byte[] network, int prefix, String text) {

    private static final Pattern LITERAL = Pattern.compile("[0-9a-fA-F:.]+");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    public static Cidr parse(String s) {
        int slash = s.indexOf('/');
        String addr = slash < 0 ? s : s.substring(0, slash);
        byte[] bytes = literal(addr);
        if (bytes == null) {
            throw new IllegalArgumentException("'" + s + "' is not an IP address or CIDR block");
        }
        int prefix = bytes.length * 8;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(s.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' has an invalid prefix length");
            }
            if (prefix < 0 || prefix > bytes.length * 8) {
                throw new IllegalArgumentException("'" + s + "' has an invalid prefix length");
            }
        }
        return new Cidr(bytes, prefix, s);
    }

    /** Whether {@code ip} is an IP literal this class can place in a network (null and names are not). */
    public static boolean isAddress(String ip) {
        return ip != null && literal(ip) != null;
    }

    public boolean contains(String ip) {
        byte[] a = ip == null ? null : literal(ip);
        if (a == null) {
            return false;
        }
        if (a.length != network.length) {
            // An IPv4-mapped IPv6 address is the same host as its IPv4 form.
            if (a.length == 16 && network.length == 4 && isMapped(a)) {
                a = java.util.Arrays.copyOfRange(a, 12, 16);
            } else {
                return false;
            }
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (a[full] & mask) == (network[full] & mask);
    }

    private static boolean isMapped(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
    }

    private static byte[] literal(String s) {
        String t = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        // Java reads a string with a colon as an IPv6 literal, or refuses it; any other string it does not read as
        // dotted decimals it looks up as a name, so only dotted decimals get that far.
        if (t.isEmpty() || !LITERAL.matcher(t).matches() || (!t.contains(":") && !IPV4.matcher(t).matches())) {
            return null;
        }
        if (!t.contains(":") && !octetsInRange(t)) {
            return null;
        }
        try {
            return InetAddress.getByName(t).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Dotted decimals each at most 255: anything else Java would look up as a host name. */
    private static boolean octetsInRange(String dotted) {
        for (String octet : dotted.split("\\.")) {
            if (Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return text;
    }
}
