package dev.quaestor.audit.record;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The URIs a summary of refused attempts stands for, in the record's {@code uris} and {@code uris_more} fields
 * (docs/audit-format.md, section 1): up to {@link #SAMPLE} distinct URIs, each with how many of the summary's events
 * named it, and how many events named none. A tally never drops a URI: once it holds {@link #SAMPLE}, it takes no
 * event naming another ({@link #takes}), and its owner closes the summary and opens the next, so every URI a refusal
 * named is in some summary's {@code uris}, where a URI search finds it. The counts always add up to the number of
 * events counted. Not thread-safe: its owner counts under its own lock.
 */
public final class UriTally {

    /** Distinct URIs kept. */
    static final int SAMPLE = 32;
    /** A URI is kept to this many characters. */
    public static final int MAX_URI = 1024;
    /** The longest {@code uris} value: {@link #SAMPLE} lines of a count, a space and a URI, separated by newlines. */
    static final int MAX_LENGTH = SAMPLE * (19 + 1 + MAX_URI) + SAMPLE - 1;

    private final Map<String, long[]> counts = new LinkedHashMap<>();
    private long more;

    /** Whether an event naming {@code uri} (null: none) can be counted here: false for a new URI once the tally is full. */
    public boolean takes(String uri) {
        return uri == null || counts.size() < SAMPLE || counts.containsKey(recorded(uri));
    }

    /** Counts one event that named {@code uri} (null: none); the caller has asked {@link #takes} first. */
    public void add(String uri) {
        if (uri == null) {
            more++;
            return;
        }
        String key = recorded(uri);
        long[] n = counts.get(key);
        if (n != null) {
            n[0]++;
        } else if (counts.size() < SAMPLE) {
            counts.put(key, new long[] {1});
        } else {
            throw new IllegalStateException("a full tally was given another URI");
        }
    }

    /** The {@code uris} field: one line per URI, {@code <count> <uri>}; null when no event named one. */
    public String lines() {
        if (counts.isEmpty()) {
            return null;
        }
        var sb = new StringBuilder(counts.size() * 64);
        for (var e : counts.entrySet()) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(e.getValue()[0]).append(' ').append(e.getKey());
        }
        return sb.toString();
    }

    /** The {@code uris_more} field: events that named no URI. */
    public long more() {
        return more;
    }

    /** The URI as the sample holds it: cut to {@link #MAX_URI}, one line (control characters replaced). */
    public static String recorded(String uri) {
        String s = uri.length() <= MAX_URI ? uri : uri.substring(0, MAX_URI);
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                if (out == null) {
                    out = new StringBuilder(s.substring(0, i));
                }
                out.append('\uFFFD');
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? s : out.toString();
    }
}
