package dev.quaestor.evidence;

import dev.quaestor.evidence.check.ProofCheck;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** A record's proof: a C2SP tlog-proof whose {@code extra} is its canonical bytes (section 4); a file holds one or more. */
public record RecordProof(byte[] record, long index, List<byte[]> path, String checkpoint) {

    public static final String HEADER = "c2sp.org/tlog-proof@v1";

    public String format() {
        var sb = new StringBuilder(1024);
        sb.append(HEADER).append('\n');
        sb.append("extra ").append(Base64.getEncoder().encodeToString(record)).append('\n');
        sb.append("index ").append(index).append('\n');
        for (byte[] h : path) {
            sb.append(Base64.getEncoder().encodeToString(h)).append('\n');
        }
        sb.append('\n').append(checkpoint);
        return sb.toString();
    }

    /** Parses every proof in a file, strictly. */
    public static List<RecordProof> parseAll(String file) {
        if (!file.startsWith(HEADER + "\n")) {
            throw new IllegalArgumentException("not a proof file: it must start with " + HEADER);
        }
        var out = new ArrayList<RecordProof>();
        int at = 0;
        while (at < file.length()) {
            int next = file.indexOf("\n" + HEADER + "\n", at);
            int end = next < 0 ? file.length() : next + 1;
            out.add(parse(file.substring(at, end)));
            at = end;
        }
        return out;
    }

    static RecordProof parse(String block) {
        String[] lines = block.split("\n", -1);
        int i = 0;
        if (!lines[i++].equals(HEADER)) {
            throw new IllegalArgumentException("proof: missing " + HEADER);
        }
        if (i >= lines.length || !lines[i].startsWith("extra ")) {
            throw new IllegalArgumentException("proof: the record (the 'extra' line) is missing");
        }
        byte[] record = base64(lines[i++].substring(6), "extra");
        long index = i < lines.length && lines[i].startsWith("index ") ? Decimal.parse(lines[i++].substring(6)) : -1;
        if (index < 0) {
            throw new IllegalArgumentException("proof: bad or missing 'index' line");
        }
        var path = new ArrayList<byte[]>();
        while (i < lines.length && !lines[i].isEmpty()) {
            byte[] h = base64(lines[i++], "hash");
            if (h.length != 32 || path.size() >= ProofCheck.MAX_PATH) {
                throw new IllegalArgumentException("proof: bad inclusion path hash");
            }
            path.add(h);
        }
        if (i >= lines.length) {
            throw new IllegalArgumentException("proof: no checkpoint after the inclusion path");
        }
        int blank = block.indexOf("\n\n"); // the first: no line before the checkpoint is empty
        String checkpoint = blank < 0 ? "" : block.substring(blank + 2);
        if (checkpoint.isEmpty() || !checkpoint.endsWith("\n")) {
            throw new IllegalArgumentException("proof: the checkpoint is missing or does not end with a newline");
        }
        return new RecordProof(record, index, path, checkpoint);
    }

    /** Canonical base64 only: the same bytes have one text. */
    private static byte[] base64(String s, String what) {
        byte[] b = Hex.base64(s);
        if (b == null) {
            throw new IllegalArgumentException("proof: " + what + " is not base64");
        }
        return b;
    }
}
