package dev.quaestor.evidence.bundle;

import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.FlatJson;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.write.FlatJsonWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bundle's {@code manifest.json} (docs/audit-format.md, section 7.2): what the bundle is (who made it, when, the
 * request id its making is on record under, for
 * which case and the key its name is sealed under in that record, from which selection, how many records of how many requests, which policy revisions the server did
 * not keep) and every other file with its size and SHA-256. It has one written form: the writer writes it, and the
 * reader reads it line by line and refuses anything that is not exactly that form, so no byte of it can change
 * unnoticed.
 */
public record Manifest(Instant made, String madeBy, String request, String forCase, String caseSealKey, String selection, long records,
        long requests, List<String> revisionsNotKept, List<Entry> files) {

    public static final String FORMAT = "quaestor-bundle/1";

    /** One file: its name, size and SHA-256 (hex). */
    public record Entry(String name, long bytes, String sha256) {
        public static Entry of(String name, byte[] content) {
            return new Entry(name, content.length, Hex.of(TreeHash.sha256(content)));
        }
    }

    /** Why a manifest cannot be read, and on which line. */
    public static final class Malformed extends Exception {
        private final long line;

        Malformed(long line, String message) {
            super(message, null, false, false);
            this.line = line;
        }

        public long line() {
            return line;
        }
    }

    public Manifest {
        revisionsNotKept = List.copyOf(revisionsNotKept);
        files = List.copyOf(files);
    }

    public byte[] bytes() {
        var sb = new StringBuilder(256 + files.size() * 140);
        sb.append("{\n");
        field(sb, "format", FORMAT);
        field(sb, "made", made.toString());
        field(sb, "madeBy", madeBy);
        field(sb, "request", request);
        if (forCase != null) {
            field(sb, "case", forCase);
        }
        if (caseSealKey != null) {
            field(sb, "caseSealKey", caseSealKey);
        }
        field(sb, "selection", selection);
        field(sb, "records", records);
        field(sb, "requests", requests);
        field(sb, "revisionsNotKept", String.join(",", revisionsNotKept));
        sb.append("  \"files\": [\n");
        for (int i = 0; i < files.size(); i++) {
            Entry e = files.get(i);
            var m = new LinkedHashMap<String, Object>();
            m.put("name", e.name());
            m.put("bytes", e.bytes());
            m.put("sha256", e.sha256());
            sb.append("    ");
            FlatJsonWriter.write(m, sb);
            sb.append(i + 1 < files.size() ? ",\n" : "\n");
        }
        sb.append("  ]\n}\n");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The line of the manifest that lists {@code files().get(index)}. */
    public long lineOf(int index) {
        int head = 8 + (forCase == null ? 0 : 1) + (caseSealKey == null ? 0 : 1);
        return 1 + head + 1 + index + 1L;
    }

    private static void field(StringBuilder sb, String name, Object value) {
        sb.append("  ");
        FlatJsonWriter.string(name, sb);
        sb.append(": ");
        if (value instanceof String s) {
            FlatJsonWriter.string(s, sb);
        } else {
            sb.append(value);
        }
        sb.append(",\n");
    }

    /** Reads a manifest; it must be exactly as {@link #bytes} writes it. */
    public static Manifest read(byte[] bytes) throws Malformed {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes)) {
            throw new Malformed(0, "it is not UTF-8 text");
        }
        if (!text.endsWith("\n")) {
            throw new Malformed(0, "it does not end with a line end");
        }
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        var head = new LinkedHashMap<String, String>();
        int i = 0;
        expect(lines, i++, "{");
        while (i < lines.length && !lines[i].equals("  \"files\": [")) {
            String line = lines[i];
            if (!line.startsWith("  \"") || !line.endsWith(",")) {
                throw new Malformed(i + 1, "not a line of the form   \"name\": value,");
            }
            Map<String, String> one = json("{" + line.substring(2, line.length() - 1) + "}", i + 1);
            if (one.size() != 1) {
                throw new Malformed(i + 1, "one name and value per line");
            }
            var e = one.entrySet().iterator().next();
            if (head.put(e.getKey(), e.getValue()) != null) {
                throw new Malformed(i + 1, "\"" + e.getKey() + "\" is given twice");
            }
            i++;
        }
        expect(lines, i++, "  \"files\": [");
        var files = new ArrayList<Entry>();
        while (i < lines.length && !lines[i].equals("  ]")) {
            String line = lines[i];
            if (!line.startsWith("    {")) {
                throw new Malformed(i + 1, "not a file's line");
            }
            boolean last = i + 1 < lines.length && lines[i + 1].equals("  ]");
            String object = last ? line.substring(4) : line.endsWith(",") ? line.substring(4, line.length() - 1) : null;
            if (object == null) {
                throw new Malformed(i + 1, "a file's line that is not the last ends with a comma");
            }
            Map<String, String> f = json(object, i + 1);
            String name = f.get("name");
            long size = f.containsKey("bytes") ? Decimal.parse(f.get("bytes")) : -1;
            String sha = f.get("sha256");
            if (f.size() != 3 || name == null || size < 0 || sha == null || !Hex.isHash(sha)) {
                throw new Malformed(i + 1, "a file's line is {\"name\":…,\"bytes\":…,\"sha256\":…}");
            }
            files.add(new Entry(name, size, sha));
            i++;
        }
        expect(lines, i++, "  ]");
        expect(lines, i++, "}");
        if (i != lines.length) {
            throw new Malformed(i + 1, "more after the manifest's end");
        }
        Manifest m = of(head, files);
        byte[] again = m.bytes();
        if (!java.util.Arrays.equals(again, bytes)) {
            throw new Malformed(firstLineDiffering(again, bytes), "it is not written as a manifest is (a value, its spelling or"
                    + " the order of its lines differs)");
        }
        return m;
    }

    private static Manifest of(Map<String, String> head, List<Entry> files) throws Malformed {
        if (!FORMAT.equals(head.get("format"))) {
            throw new Malformed(2, "not a manifest of format " + FORMAT);
        }
        for (String need : List.of("made", "madeBy", "request", "selection", "records", "requests", "revisionsNotKept")) {
            if (!head.containsKey(need)) {
                throw new Malformed(0, "\"" + need + "\" is missing");
            }
        }
        Instant made;
        try {
            made = Instant.parse(head.get("made"));
        } catch (DateTimeParseException e) {
            throw new Malformed(3, "\"made\" is not a time");
        }
        String sealKey = head.get("caseSealKey");
        if (sealKey != null && (head.get("case") == null || !Hex.isHash(sealKey))) {
            throw new Malformed(0, "\"caseSealKey\" is the 64 hex digits of the key the case's name is sealed under, and only with \"case\"");
        }
        long records = Decimal.parse(head.get("records"));
        long requests = Decimal.parse(head.get("requests"));
        if (records < 0 || requests < 0) {
            throw new Malformed(0, "\"records\" and \"requests\" are whole numbers");
        }
        String kept = head.get("revisionsNotKept");
        List<String> notKept = kept.isEmpty() ? List.of() : List.of(kept.split(",", -1));
        return new Manifest(made, head.get("madeBy"), head.get("request"), head.get("case"), sealKey, head.get("selection"), records, requests, notKept, files);
    }

    private static Map<String, String> json(String object, long line) throws Malformed {
        try {
            return FlatJson.read(object, line);
        } catch (FlatJson.Malformed e) {
            throw new Malformed(line, e.detail());
        }
    }

    private static void expect(String[] lines, int i, String line) throws Malformed {
        if (i >= lines.length || !lines[i].equals(line)) {
            throw new Malformed(Math.min(i, lines.length) + 1, "expected the line " + line.strip());
        }
    }

    private static long firstLineDiffering(byte[] a, byte[] b) {
        long line = 1;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (a[i] != b[i]) {
                return line;
            }
            if (a[i] == '\n') {
                line++;
            }
        }
        return line;
    }
}
