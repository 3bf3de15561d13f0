package dev.quaestor.http;

import dev.quaestor.policy.Cidr;
import io.vertx.core.MultiMap;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The proxies whose forwarding header is believed, and how a request's client address is read through them: the
 * header's hops are taken from the right (the hop the nearest proxy appended first), and each is believed only while
 * the one after it is a trusted proxy. The first hop that is not a trusted proxy is the client; when every hop is a
 * trusted proxy, the left-most one sent the request (a trusted proxy wrote that hop), and when the header is absent the
 * peer did. A walk that reaches a hop naming no address (obfuscated, {@code unknown}, malformed), or that stops at
 * {@link #MAX_HOPS} while still on trusted proxies, leaves the client unknown ({@code null}): never a proxy standing in
 * for a client it could not name. With no trusted proxies nothing is read: the connection's peer is the client.
 *
 * <p>{@code X-Forwarded-For} is split at every comma; it has no quoting, so a quote is an ordinary character (and a
 * hop holding one names no address). {@code Forwarded} (RFC 7239) is split at commas outside quoted-strings, with
 * backslash quoted-pairs; a header line that ends inside a quoted-string is malformed as a whole and counts as one
 * hop naming no address, so a proxy that appends to a client's line cannot have its hop swallowed by the client's open
 * quote. A hop's address is read strictly ({@link #address}).
 */
public final class TrustedProxies {

    /** Believes no one. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of(), ForwardedConfig.Header.X_FORWARDED_FOR);

    /** Hops read from the right, at most: a walk still on trusted proxies after this many, with more left, leaves the client unknown. */
    static final int MAX_HOPS = 32;

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3}(?:\\.\\d{1,3}){3})(?::\\d{1,5})?");
    private static final Pattern BRACKETED = Pattern.compile("\\[([^\\]]*)](?::\\d{1,5})?");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:][0-9a-fA-F:.]*");

    private final List<Cidr> proxies;
    private final ForwardedConfig.Header header;

    TrustedProxies(List<Cidr> proxies, ForwardedConfig.Header header) {
        this.proxies = List.copyOf(proxies);
        this.header = header;
    }

    /** From the configuration; an entry that is not an address or CIDR block fails with a message naming the setting. */
    public static TrustedProxies of(ForwardedConfig config) {
        var cidrs = new ArrayList<Cidr>();
        for (String entry : config.trustedProxies().orElse(List.of())) {
            if (entry.isBlank()) {
                continue;
            }
            try {
                cidrs.add(Cidr.parse(entry.strip()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("quaestor.http.forwarded.trusted-proxies: " + e.getMessage(), e);
            }
        }
        return new TrustedProxies(cidrs, config.header());
    }

    public boolean none() {
        return proxies.isEmpty();
    }

    /**
     * The client's address: {@code peer} unless it is a trusted proxy, else read through the forwarding header; null
     * when that header leaves the client unknown.
     */
    public String client(String peer, MultiMap headers) {
        if (peer == null || proxies.isEmpty() || !trusted(peer)) {
            return peer;
        }
        List<String> values = headers.getAll(header == ForwardedConfig.Header.FORWARDED ? "Forwarded" : "X-Forwarded-For");
        if (values.isEmpty()) {
            return peer;
        }
        List<String> hops = hops(values);
        boolean cut = hops.size() > MAX_HOPS; // hops() keeps one more than may be read, to tell
        String hop = null;
        for (int i = hops.size() - 1; i >= (cut ? 1 : 0); i--) {
            hop = address(hops.get(i));
            if (hop == null || !trusted(hop)) {
                return hop;
            }
        }
        // Every hop read is a trusted proxy. If that was all of them, the left-most one sent the request, as the trusted
        // proxy after it says; if hops were left unread, the client is among them and unknown.
        return cut ? null : hop;
    }

    boolean trusted(String address) {
        for (Cidr c : proxies) {
            if (c.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The header's hops in order, the last {@link #MAX_HOPS} of them and one more (which says whether any were left
     * unread): each value's entries, or {@code for=} values.
     */
    private List<String> hops(List<String> values) {
        var hops = new ArrayList<String>();
        for (String value : values) {
            if (header == ForwardedConfig.Header.FORWARDED) {
                List<String> elements = split(value, ',');
                if (elements == null) {
                    hops.add(""); // ends inside a quoted-string: one hop, naming no address
                } else {
                    elements.forEach(e -> hops.add(forParameter(e)));
                }
            } else {
                for (String entry : value.split(",", -1)) {
                    hops.add(entry.strip());
                }
            }
        }
        return hops.size() <= MAX_HOPS + 1 ? hops : hops.subList(hops.size() - MAX_HOPS - 1, hops.size());
    }

    /**
     * A {@code Forwarded} value split at {@code separator} outside quoted-strings (a backslash inside one quotes the
     * character after it); null when the value ends inside a quoted-string.
     */
    static List<String> split(String value, char separator) {
        var out = new ArrayList<String>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (quoted && c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == separator && !quoted) {
                out.add(value.substring(start, i));
                start = i + 1;
            }
        }
        if (quoted) {
            return null;
        }
        out.add(value.substring(start));
        return out;
    }

    /**
     * A {@code Forwarded} element's {@code for=} value, unquoted; "" (which names no address) when it has none, or more
     * than one.
     */
    static String forParameter(String element) {
        List<String> pairs = split(element, ';');
        String found = null;
        for (String pair : pairs == null ? List.<String>of() : pairs) {
            String p = pair.strip();
            if (p.length() >= 4 && p.regionMatches(true, 0, "for=", 0, 4)) {
                if (found != null) {
                    return "";
                }
                found = unquote(p.substring(4).strip());
            }
        }
        return found == null ? "" : found;
    }

    /** A quoted-string's content, its quoted-pairs undone; anything else as it is. */
    private static String unquote(String v) {
        if (v.length() < 2 || !v.startsWith("\"") || !v.endsWith("\"")) {
            return v;
        }
        var out = new StringBuilder();
        for (int i = 1; i < v.length() - 1; i++) {
            char c = v.charAt(i);
            if (c == '\\' && i + 1 < v.length() - 1) {
                c = v.charAt(++i);
            }
            out.append(c);
        }
        return out.toString();
    }

    /**
     * The IP address a hop names, as Java writes it (the form a connection's peer has), its port dropped; null when it
     * names none. Only three forms are read: {@code a.b.c.d} and {@code [v6]}, each optionally followed by {@code :}
     * and 1 to 5 digits, and a bare IPv6 address; anything around or after them, a name to look up among it, names no
     * address.
     */
    static String address(String hop) {
        String h = hop.strip();
        Matcher m;
        if ((m = IPV4.matcher(h)).matches()) {
            return ipv4(m.group(1));
        }
        if ((m = BRACKETED.matcher(h)).matches()) {
            return ipv6(m.group(1));
        }
        return ipv6(h);
    }

    /** Four decimal octets of 0 to 255, without leading zeros (which some read as octal). */
    private static String ipv4(String dotted) {
        String[] parts = dotted.split("\\.");
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            int octet = Integer.parseInt(parts[i]);
            if (octet > 255 || (parts[i].length() > 1 && parts[i].charAt(0) == '0')) {
                return null;
            }
            bytes[i] = (byte) octet;
        }
        try {
            return InetAddress.getByAddress(bytes).getHostAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * An IPv6 literal, or null. Only a string that Java must read as one (it starts with a hex digit or a colon and
     * holds two colons) is handed to it, so nothing is ever looked up as a name.
     */
    private static String ipv6(String literal) {
        if (!IPV6.matcher(literal).matches() || literal.indexOf(':') == literal.lastIndexOf(':')) {
            return null;
        }
        try {
            return InetAddress.getByName(literal).getHostAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
