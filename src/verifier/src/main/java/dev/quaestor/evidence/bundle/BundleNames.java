package dev.quaestor.evidence.bundle;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;

/**
 * Where each file of an evidence bundle is (docs/audit-format.md, section 7): the names are made from what the
 * files hold (a log, a seq, a size, a policy revision), so a checker knows which files a bundle must have and
 * that it has no others. A log id or a policy file name is one path segment: anything but letters, digits,
 * {@code .}, {@code _} and {@code -} is percent-encoded (UTF-8), and a segment of dots only is encoded whole.
 */
public final class BundleNames {

    public static final String README = "README.txt";
    public static final String MANIFEST = "manifest.json";
    public static final String RECORDS = "records.jsonl";

    /** The order of a bundle's files: README, manifest, records, then the rest by name (UTF-8 bytes). */
    public static final Comparator<String> ORDER = Comparator.comparingInt(BundleNames::rank).thenComparing(BundleNames::compareBytes);

    private BundleNames() {
    }

    public static String proof(String log, long seq) {
        return "proofs/" + segment(log) + "/" + seq + ".tlog-proof";
    }

    public static String checkpoint(String log, long size) {
        return "checkpoints/" + segment(log) + "/" + size + ".note";
    }

    public static String token(String log, long size) {
        return "checkpoints/" + segment(log) + "/" + size + ".tsr";
    }

    public static String consistency(String log, long from, long to) {
        return "consistency/" + segment(log) + "/" + from + "-" + to + ".txt";
    }

    /** The folder of a policy revision's files, ending with {@code /}. */
    public static String policyFolder(String revision) {
        return "policy/" + segment(revision) + "/";
    }

    public static String policyFile(String revision, String file) {
        return policyFolder(revision) + segment(file);
    }

    /** The file name a segment was made from (the inverse of {@link #segment}); null if it is not one {@link #segment} makes. */
    public static String unsegment(String segment) {
        if (segment.isEmpty()) {
            return null;
        }
        var bytes = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%' && i + 2 < segment.length()) {
                try {
                    bytes.write(Integer.parseInt(segment.substring(i + 1, i + 3), 16));
                } catch (NumberFormatException e) {
                    return null;
                }
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        String name = bytes.toString(StandardCharsets.UTF_8);
        return segment(name).equals(segment) ? name : null;
    }

    /** A name as one safe path segment. */
    public static String segment(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("an empty name");
        }
        boolean dots = name.chars().allMatch(c -> c == '.');
        var sb = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            boolean plain = !dots && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-');
            if (plain) {
                sb.append((char) c);
            } else {
                sb.append('%').append(String.format("%02X", c));
            }
        }
        return sb.toString();
    }

    private static int rank(String name) {
        return switch (name) {
            case README -> 0;
            case MANIFEST -> 1;
            case RECORDS -> 2;
            default -> 3;
        };
    }

    private static int compareBytes(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
