package dev.quaestor.evidence;

import dev.quaestor.evidence.check.ProofCheck;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** A consistency proof (section 5): log {@code origin} at {@code from} records is the start of it at {@code to}. */
public record ConsistencyProof(String origin, long from, long to, List<byte[]> path) {

    public static final String HEADER = "quaestor-consistency/v1";

    public String format() {
        var sb = new StringBuilder(HEADER).append('\n').append(origin).append('\n').append(from).append(' ').append(to).append('\n');
        for (byte[] h : path) {
            sb.append(Base64.getEncoder().encodeToString(h)).append('\n');
        }
        return sb.toString();
    }

    /** Parses a file, strictly. */
    public static ConsistencyProof parse(String file) {
        if (!file.endsWith("\n")) {
            throw new IllegalArgumentException("a consistency proof ends with a newline");
        }
        String[] lines = file.substring(0, file.length() - 1).split("\n", -1);
        if (lines.length < 3 || !lines[0].equals(HEADER)) {
            throw new IllegalArgumentException("not a consistency proof: it must start with " + HEADER);
        }
        if (lines[1].isEmpty() || lines[1].contains(" ")) {
            throw new IllegalArgumentException("consistency proof: bad origin line");
        }
        String[] sizes = lines[2].split(" ", -1);
        long from = sizes.length == 2 ? Decimal.parse(sizes[0]) : -1;
        long to = sizes.length == 2 ? Decimal.parse(sizes[1]) : -1;
        if (from < 0 || to < 0) {
            throw new IllegalArgumentException("consistency proof: the third line must be two sizes, \"OLD NEW\"");
        }
        var path = new ArrayList<byte[]>();
        for (int i = 3; i < lines.length; i++) {
            byte[] h = Hex.base64(lines[i]);
            if (h == null || h.length != 32 || path.size() >= ProofCheck.MAX_PATH) {
                throw new IllegalArgumentException("consistency proof: line " + (i + 1) + " is not a base64 hash");
            }
            path.add(h);
        }
        return new ConsistencyProof(lines[1], from, to, path);
    }
}
