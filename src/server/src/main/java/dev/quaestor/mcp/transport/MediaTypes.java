package dev.quaestor.mcp.transport;

import java.util.Locale;

/**
 * The media types of a POST to /mcp as RFC 9110 reads them: a {@code Content-Type} is its type and subtype, whatever
 * parameters follow ({@code application/jsonx} is not JSON), and an {@code Accept} range counts with its weight, the
 * most specific range deciding ({@code application/json;q=0} refuses JSON even beside {@code *}{@code /*}).
 */
final class MediaTypes {

    static final String JSON = "application/json";
    static final String EVENT_STREAM = "text/event-stream";

    private MediaTypes() {
    }

    /** Whether a {@code Content-Type} names JSON: {@code application/json}, in any letter case, with any parameters. */
    static boolean isJson(String contentType) {
        return JSON.equals(essence(contentType));
    }

    /**
     * How much {@code accept} wants {@code type} (a type and subtype in lower case), from 0 (not at all) to 1: the
     * weight of the most specific range that matches it. No {@code Accept}, or a blank one, takes anything; a range
     * whose weight cannot be read is left out.
     */
    static double quality(String accept, String type) {
        if (accept == null || accept.isBlank()) {
            return 1;
        }
        String major = type.substring(0, type.indexOf('/') + 1);
        int best = -1;
        double q = 0;
        for (String range : accept.split(",")) {
            String name = essence(range);
            int specificity = name.equals(type) ? 2 : name.equals(major + "*") ? 1 : name.equals("*/*") ? 0 : -1;
            if (specificity > best) {
                double weight = weight(range);
                if (weight >= 0) {
                    best = specificity;
                    q = weight;
                }
            }
        }
        return q;
    }

    /** The type and subtype, without parameters, trimmed and in lower case; empty for none. */
    private static String essence(String value) {
        if (value == null) {
            return "";
        }
        int semi = value.indexOf(';');
        return (semi < 0 ? value : value.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    }

    /** A range's {@code q}: 1 if it gives none, -1 if it is not a number from 0 to 1. */
    private static double weight(String range) {
        String[] params = range.split(";");
        for (int i = 1; i < params.length; i++) {
            String p = params[i].strip();
            if (p.length() > 2 && (p.charAt(0) == 'q' || p.charAt(0) == 'Q') && p.charAt(1) == '=') {
                try {
                    double q = Double.parseDouble(p.substring(2).strip());
                    return q >= 0 && q <= 1 ? q : -1;
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return 1;
    }
}
