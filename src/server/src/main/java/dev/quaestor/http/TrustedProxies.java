package dev.quaestor.http;

import dev.quaestor.policy.Cidr;
import io.vertx.core.MultiMap;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The proxies whose forwarding header is believed, and how a request's client address is read through them: the
 * header's hops are taken from the right (the hop the nearest proxy appended first), and each is believed only while
 * the one after it is a trusted proxy. The first hop that is not a trusted proxy is the client; an entry that names
 * no address (obfuscated, {@code unknown}, malformed) stops the walk at the proxy that wrote it. With no trusted
 * proxies nothing is read: the connection's peer is the client.
 */
public final class TrustedProxies {

    /** Believes no one. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of(), ForwardedConfig.Header.X_FORWARDED_FOR);

    /** Hops read from the right, at most: a header longer than this stops the walk at the last one read. */
    static final int MAX_HOPS = 32;

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+");

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

    /** The client's address: {@code peer} unless it is a trusted proxy, else read through the forwarding header. */
    public String client(String peer, MultiMap headers) {
        if (peer == null || proxies.isEmpty() || !trusted(peer)) {
            return peer;
        }
        List<String> hops = hops(headers.getAll(header == ForwardedConfig.Header.FORWARDED ? "Forwarded" : "X-Forwarded-For"));
        String current = peer;
        for (int i = hops.size() - 1; i >= 0 && trusted(current); i--) {
            String hop = address(hops.get(i));
            if (hop == null) {
                break;
            }
            current = hop;
        }
        return current;
    }

    boolean trusted(String address) {
        for (Cidr c : proxies) {
            if (c.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** The header's hops in order, the last {@link #MAX_HOPS} of them: each value's entries, or {@code for=} parameters. */
    private List<String> hops(List<String> values) {
        var hops = new ArrayList<String>();
        for (String value : values) {
            for (String element : elements(value)) {
                hops.add(header == ForwardedConfig.Header.FORWARDED ? forParameter(element) : element.strip());
            }
        }
        return hops.size() <= MAX_HOPS ? hops : hops.subList(hops.size() - MAX_HOPS, hops.size());
    }

    /** A header value split at commas outside quoted strings. */
    static List<String> elements(String value) {
        var out = new ArrayList<String>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(value.substring(start, i));
                start = i + 1;
            }
        }
        out.add(value.substring(start));
        return out;
    }

    /** A {@code Forwarded} element's {@code for=} value, unquoted; "" when it has none (which names no address). */
    static String forParameter(String element) {
        for (String pair : element.split(";")) {
            String p = pair.strip();
            if (p.length() > 4 && p.regionMatches(true, 0, "for=", 0, 4)) {
                String v = p.substring(4).strip();
                return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
            }
        }
        return "";
    }

    /**
     * The IP address a hop names, as Java writes it (the form a connection's peer has), its port dropped; null when it
     * names none. Only literals are read, never a name to look up.
     */
    static String address(String hop) {
        String h = hop.strip();
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            if (end < 0) {
                return null;
            }
            h = h.substring(1, end);
        } else if (h.indexOf(':') >= 0 && h.indexOf(':') == h.lastIndexOf(':')) {
            h = h.substring(0, h.indexOf(':')); // IPv4 with a port
        }
        if (!(h.indexOf(':') >= 0 ? IPV6 : IPV4).matcher(h).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(h).getHostAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
