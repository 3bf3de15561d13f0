package dev.quaestor.audit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The audit chain's canonical encoding and its verifier, in one JDK-only file so that compliance
 * staff can run it with nothing but a JDK, against an export, trusting neither server nor database:
 *
 * <pre>
 *   java ChainVerifier.java audit-export.jsonl [--trust PUBLIC_KEY_BASE64_OR_FILE]... [--partial]
 * </pre>
 *
 * The server uses the same class to hash records as it writes them and to verify online, so there
 * is exactly one definition of the format.
 *
 * <p><b>Format v1.</b> Each record's hash is {@code hex(SHA-256(canonical))}, where {@code canonical}
 * is, for each name in {@link #FIELDS} in order, {@code name ":" (value == null ? "~" : length ":" value) "\n"}
 * (length in UTF-16 units, so any value, newlines included, encodes unambiguously). The record's
 * {@code prev} is the previous record's hash in the same chain ({@link #GENESIS} for seq 1), so
 * changing, removing, inserting or reordering records breaks the chain. A checkpoint is an Ed25519
 * signature over {@code "quaestor-checkpoint-v1\n" chain "\n" seq "\n" hash "\n" time}: it pins a chain
 * head, so even someone who can rewrite the whole database cannot re-forge history before it
 * without the signing key.
 *
 * <p><b>Export (JSON Lines).</b> One flat object per line: {@code {"type":"key","keyId":..,"publicKey":..}}
 * (X.509, base64), {@code {"type":"checkpoint","chain":..,"seq":..,"hash":..,"time":..,"keyId":..,"signature":..}},
 * and {@code {"type":"record", <FIELDS>..., "hash":..}} in the order the database stored them.
 */
public final class ChainVerifier {

    public static final String FORMAT = "v1";
    public static final String GENESIS = "0".repeat(64);

    /** The hashed fields, in order. Changing this list is a new format version. */
    public static final List<String> FIELDS = List.of("v", "chain", "seq", "prev", "time", "request", "kind", "session",
            "subject", "client", "tenant", "roles", "ip", "ua", "method", "action", "uri", "decision", "rules",
            "revision", "outcome", "error", "bytes", "items", "sha256", "latency_us", "detail");

    /** The first problem found in one chain, with its position. */
    public record Problem(String chain, long seq, long line, String message) {
        @Override
        public String toString() {
            return "chain " + chain + ": " + message + " (seq " + seq + (line > 0 ? ", line " + line : "") + ")";
        }
    }

    /** What was verified: per chain, records seen, the head, checkpoints checked, the unsigned tail. */
    public record ChainReport(String chain, long records, long headSeq, String headHash, int checkpoints,
            long unsignedTail) {
    }

    public record Report(List<ChainReport> chains, List<Problem> problems, List<String> warnings) {
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    /** A signed chain head as stored and exported. */
    public record Checkpoint(String chain, long seq, String hash, String time, String keyId, String signature) {
    }

    private static final class ChainState {
        long records;
        long lastSeq;
        String lastHash = GENESIS;
        int checkpointsMatched;
        long lastCheckpointSeq;
        Problem problem;
    }

    private final Map<String, PublicKey> keys;
    private final boolean keysPinned;
    private final boolean partial;
    private final Map<String, TreeMap<Long, Checkpoint>> checkpoints = new HashMap<>();
    private final Map<String, ChainState> chains = new TreeMap<>();
    private final List<Problem> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final MessageDigest sha256;

    /**
     * @param trusted public keys (by key id) checkpoints must be signed with; if empty, the keys
     *     found in the export are used and the report warns that they were not pinned
     * @param partial the input may start mid-chain (a time-range export); otherwise every chain must start at seq 1
     */
    public ChainVerifier(Map<String, PublicKey> trusted, boolean partial) {
        this.partial = partial;
        this.keys = new HashMap<>(trusted);
        this.keysPinned = !trusted.isEmpty();
        this.sha256 = newDigest();
    }

    // ---- canonical form, shared with the writer ----

    public static String canonical(Map<String, String> values) {
        var sb = new StringBuilder(512);
        for (String f : FIELDS) {
            String v = values.get(f);
            sb.append(f).append(':');
            if (v == null) {
                sb.append('~');
            } else {
                sb.append(v.length()).append(':').append(v);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    public static String hash(MessageDigest sha256, Map<String, String> values) {
        sha256.reset();
        return HexFormat.of().formatHex(sha256.digest(canonical(values).getBytes(StandardCharsets.UTF_8)));
    }

    public static byte[] checkpointPayload(String chain, long seq, String hash, String time) {
        return ("quaestor-checkpoint-v1\n" + chain + "\n" + seq + "\n" + hash + "\n" + time).getBytes(StandardCharsets.UTF_8);
    }

    public static String keyId(PublicKey key) {
        return HexFormat.of().formatHex(newDigest().digest(key.getEncoded())).substring(0, 16);
    }

    public static PublicKey publicKey(String base64X509) {
        try {
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64X509.trim())));
        } catch (Exception e) {
            throw new IllegalArgumentException("not an Ed25519 public key (X.509, base64)", e);
        }
    }

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- streaming verification ----

    /** Registers a key found in the export; ignored when keys are pinned. */
    public void key(String keyId, String base64X509) {
        if (keysPinned) {
            return;
        }
        PublicKey k = publicKey(base64X509);
        if (!keyId(k).equals(keyId)) {
            problems.add(new Problem("-", 0, 0, "key " + keyId + " does not match its own key id"));
            return;
        }
        keys.put(keyId, k);
    }

    /** Checkpoints must be given before the records of their chain. */
    public void checkpoint(Checkpoint c, long line) {
        PublicKey key = keys.get(c.keyId());
        if (key == null) {
            fail(c.chain(), c.seq(), line, "checkpoint signed by unknown key " + c.keyId());
            return;
        }
        try {
            Signature sig = Signature.getInstance("Ed25519");
            sig.initVerify(key);
            sig.update(checkpointPayload(c.chain(), c.seq(), c.hash(), c.time()));
            if (!sig.verify(Base64.getDecoder().decode(c.signature()))) {
                fail(c.chain(), c.seq(), line, "checkpoint signature is invalid");
                return;
            }
        } catch (Exception e) {
            fail(c.chain(), c.seq(), line, "checkpoint signature cannot be checked: " + e.getMessage());
            return;
        }
        checkpoints.computeIfAbsent(c.chain(), k -> new TreeMap<>()).put(c.seq(), c);
    }

    /** One record, in stored order. {@code values} holds {@link #FIELDS} plus {@code hash}. */
    public void record(Map<String, String> values, long line) {
        record(values, line, null);
    }

    /** As {@link #record(Map, long)}, with the content hash already computed (by a worker thread). */
    public void record(Map<String, String> values, long line, String computedHash) {
        String chain = values.get("chain");
        ChainState s = chains.computeIfAbsent(chain == null ? "?" : chain, k -> new ChainState());
        long seq;
        try {
            seq = Long.parseLong(values.get("seq"));
        } catch (NumberFormatException e) {
            fail(chain, -1, line, "record without a valid seq");
            return;
        }
        s.records++;
        if (s.problem != null) {
            return; // report the first break per chain; later ones follow from it
        }
        if (s.records == 1 && partial && seq > 1) {
            // A range export starts mid-chain: take its first record's link on trust.
            warnings.add("chain " + chain + ": export starts at seq " + seq + "; records before it were not checked");
            s.lastSeq = seq - 1;
            s.lastHash = values.get("prev");
        }
        if (!FORMAT.equals(values.get("v"))) {
            fail(chain, seq, line, "unknown record format " + values.get("v"));
        } else if (seq <= s.lastSeq) {
            fail(chain, seq, line, "record reordered or duplicated: seq " + seq + " after " + s.lastSeq
                    + " (rows moved, or a forged row inserted)");
        } else if (seq != s.lastSeq + 1) {
            fail(chain, s.lastSeq + 1, line, "records missing or reordered: expected seq " + (s.lastSeq + 1) + " but found " + seq
                    + " (rows deleted, or moved)");
        } else if (!s.lastHash.equals(values.get("prev"))) {
            fail(chain, seq, line, "broken link: prev does not match the hash of seq " + s.lastSeq
                    + " (a row was changed, removed or forged before it)");
        } else if (!(computedHash != null ? computedHash : hash(sha256, values)).equals(values.get("hash"))) {
            fail(chain, seq, line, "record altered: its content does not match its hash");
        } else {
            TreeMap<Long, Checkpoint> cps = checkpoints.get(chain);
            Checkpoint cp = cps == null ? null : cps.get(seq);
            if (cp != null && !cp.hash().equals(values.get("hash"))) {
                fail(chain, seq, line, "record does not match the signed checkpoint at seq " + seq
                        + " (history rewritten)");
                return;
            }
            if (cp != null) {
                s.checkpointsMatched++;
                s.lastCheckpointSeq = seq;
            }
            s.lastSeq = seq;
            s.lastHash = values.get("hash");
        }
    }

    public Report finish() {
        var out = new ArrayList<ChainReport>();
        for (var e : checkpoints.entrySet()) {
            ChainState s = chains.get(e.getKey());
            long last = e.getValue().lastKey();
            if (s == null) {
                problems.add(new Problem(e.getKey(), last, 0, "chain has signed checkpoints but no records (truncated)"));
            } else if (s.problem == null && last > s.lastSeq) {
                fail(e.getKey(), s.lastSeq + 1, 0, "chain ends at seq " + s.lastSeq + " but a signed checkpoint covers seq "
                        + last + " (records truncated)");
            }
        }
        for (var e : chains.entrySet()) {
            ChainState s = e.getValue();
            long tail = s.lastSeq - s.lastCheckpointSeq;
            out.add(new ChainReport(e.getKey(), s.records, s.lastSeq, s.lastHash, s.checkpointsMatched, tail));
            if (s.problem == null && tail > 0) {
                warnings.add("chain " + e.getKey() + ": " + tail + " record(s) after the last signed checkpoint (seq "
                        + s.lastCheckpointSeq + ") are chained but not yet signed");
            }
        }
        if (!keysPinned) {
            warnings.add("checkpoint keys were taken from the export itself; pass --trust with the server's published key to pin them");
        }
        return new Report(out, List.copyOf(problems), List.copyOf(warnings));
    }

    private void fail(String chain, long seq, long line, String message) {
        var p = new Problem(chain, seq, line, message);
        ChainState s = chains.get(chain);
        if (s != null) {
            if (s.problem != null) {
                return;
            }
            s.problem = p;
        }
        problems.add(p);
    }

    // ---- the offline tool ----

    public static void main(String[] args) throws IOException {
        System.exit(run(args, System.out));
    }

    public static int run(String[] args, PrintStream out) throws IOException {
        String file = null;
        boolean partial = false;
        var trusted = new HashMap<String, PublicKey>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--partial")) {
                partial = true;
            } else if (args[i].equals("--trust") && i + 1 < args.length) {
                String v = args[++i];
                Path p = Path.of(v);
                PublicKey k = publicKey(Files.isRegularFile(p) ? Files.readString(p) : v);
                trusted.put(keyId(k), k);
            } else if (file == null) {
                file = args[i];
            } else {
                out.println("usage: java ChainVerifier.java EXPORT.jsonl [--trust PUBLIC_KEY_BASE64_OR_FILE]... [--partial]");
                return 2;
            }
        }
        if (file == null) {
            out.println("usage: java ChainVerifier.java EXPORT.jsonl [--trust PUBLIC_KEY_BASE64_OR_FILE]... [--partial]");
            return 2;
        }
        var v = new ChainVerifier(trusted, partial);
        long started = System.nanoTime();
        // Parsing and hashing are per line and independent: workers do them in chunks, while this
        // thread checks links, order and checkpoints strictly in file order.
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        var pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "verify");
            t.setDaemon(true);
            return t;
        });
        var pending = new java.util.ArrayDeque<java.util.concurrent.Future<List<Parsed>>>();
        try (BufferedReader r = file.equals("-") ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            long lines = 0;
            boolean eof = false;
            while (!eof || !pending.isEmpty()) {
                while (!eof && pending.size() < threads * 4) {
                    var chunk = new ArrayList<String>(CHUNK);
                    long first = lines + 1;
                    String line;
                    while (chunk.size() < CHUNK && (line = r.readLine()) != null) {
                        chunk.add(line);
                        lines++;
                    }
                    eof = chunk.size() < CHUNK;
                    if (!chunk.isEmpty()) {
                        pending.add(pool.submit(() -> parse(chunk, first)));
                    }
                }
                if (pending.isEmpty()) {
                    break;
                }
                for (Parsed p : pending.poll().get()) {
                    Map<String, String> o = p.values();
                    switch (String.valueOf(o.get("type"))) {
                        case "key" -> v.key(o.get("keyId"), o.get("publicKey"));
                        case "checkpoint" -> v.checkpoint(new Checkpoint(o.get("chain"), Long.parseLong(o.get("seq")),
                                o.get("hash"), o.get("time"), o.get("keyId"), o.get("signature")), p.line());
                        case "record" -> v.record(o, p.line(), p.hash());
                        default -> {
                            out.println("line " + p.line() + ": unknown type " + o.get("type"));
                            return 2;
                        }
                    }
                }
            }
        } catch (java.util.concurrent.ExecutionException e) {
            out.println("unreadable export: " + e.getCause().getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 2;
        } finally {
            pool.shutdownNow();
        }
        Report report = v.finish();
        double seconds = (System.nanoTime() - started) / 1e9;
        long records = report.chains().stream().mapToLong(ChainReport::records).sum();
        for (ChainReport c : report.chains()) {
            out.printf("chain %s: %d records, head seq %d, %d signed checkpoint(s) matched%n", c.chain(), c.records(),
                    c.headSeq(), c.checkpoints());
        }
        report.warnings().forEach(w -> out.println("WARNING " + w));
        report.problems().forEach(p -> out.println("BROKEN  " + p));
        out.printf("%s: %d records in %d chain(s) checked in %.2f s (%.0f records/s)%n", report.ok() ? "VERIFIED" : "FAILED",
                records, report.chains().size(), seconds, records / Math.max(seconds, 1e-9));
        return report.ok() ? 0 : 1;
    }

    private static final int CHUNK = 2000;

    private record Parsed(Map<String, String> values, long line, String hash) {
    }

    private static List<Parsed> parse(List<String> lines, long firstLine) {
        var sha = newDigest();
        var out = new ArrayList<Parsed>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            Map<String, String> o = parseFlatJson(line);
            out.add(new Parsed(o, firstLine + i, "record".equals(o.get("type")) ? hash(sha, o) : null));
        }
        return out;
    }

    /** Parses one flat JSON object (string, number, boolean or null values) into strings. */
    static Map<String, String> parseFlatJson(String s) {
        var out = new HashMap<String, String>(64);
        int[] i = {skip(s, 0)};
        expect(s, i, '{');
        i[0] = skip(s, i[0]);
        if (s.charAt(i[0]) == '}') {
            return out;
        }
        while (true) {
            i[0] = skip(s, i[0]);
            String key = string(s, i);
            i[0] = skip(s, i[0]);
            expect(s, i, ':');
            i[0] = skip(s, i[0]);
            char c = s.charAt(i[0]);
            String value;
            if (c == '"') {
                value = string(s, i);
            } else {
                int start = i[0];
                while (i[0] < s.length() && ",} \t".indexOf(s.charAt(i[0])) < 0) {
                    i[0]++;
                }
                String raw = s.substring(start, i[0]);
                value = raw.equals("null") ? null : raw;
            }
            out.put(key, value);
            i[0] = skip(s, i[0]);
            if (s.charAt(i[0]) == ',') {
                i[0]++;
                continue;
            }
            expect(s, i, '}');
            return out;
        }
    }

    private static int skip(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static void expect(String s, int[] i, char c) {
        if (i[0] >= s.length() || s.charAt(i[0]) != c) {
            throw new IllegalArgumentException("malformed JSON line: expected '" + c + "' at " + i[0]);
        }
        i[0]++;
    }

    private static String string(String s, int[] i) {
        expect(s, i, '"');
        int close = s.indexOf('"', i[0]);
        int escape = s.indexOf('\\', i[0]);
        if (close >= 0 && (escape < 0 || escape > close)) {
            String plain = s.substring(i[0], close); // the common case: nothing escaped
            i[0] = close + 1;
            return plain;
        }
        var sb = new StringBuilder();
        while (true) {
            char c = s.charAt(i[0]++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = s.charAt(i[0]++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(s.substring(i[0], i[0] + 4), 16));
                    i[0] += 4;
                }
                default -> throw new IllegalArgumentException("malformed JSON escape \\" + e);
            }
        }
    }
}
