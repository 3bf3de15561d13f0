package dev.quaestor.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
 * (length in UTF-16 units, so any value, newlines included, encodes unambiguously), in UTF-8. The
 * record's {@code prev} is the previous record's hash in the same chain ({@link #GENESIS} for seq 1), so
 * changing, removing, inserting or reordering records breaks the chain. A checkpoint is an Ed25519
 * signature over {@code "quaestor-checkpoint-v1\n" chain "\n" seq "\n" hash "\n" time}: it pins a chain
 * head, so even someone who can rewrite the whole database cannot re-forge history before it
 * without the signing key.
 *
 * <p><b>Archive markers.</b> When the owner archives old records, a marker {@code (chain, seq, hash)}
 * names the last archived record. It is accepted only if a validly signed checkpoint pins the same
 * seq and hash; the chain then continues at {@code seq + 1}, whose {@code prev} must be that hash.
 *
 * <p><b>Export (JSON Lines).</b> One flat object per line: {@code {"type":"key","keyId":..,"publicKey":..}}
 * (X.509, base64), {@code {"type":"checkpoint","chain":..,"seq":..,"hash":..,"time":..,"keyId":..,"signature":..}},
 * {@code {"type":"archive","chain":..,"seq":..,"hash":..}}, and {@code {"type":"record", <FIELDS>..., "hash":..}}
 * in the order the database stored them; keys, checkpoints and markers come before records.
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

    /**
     * What was verified: per chain, records seen, the head, checkpoints checked, the unsigned tail,
     * and the seq up to which records were archived (0: none; the chain was checked from seq 1).
     */
    public record ChainReport(String chain, long records, long headSeq, String headHash, int checkpoints,
            long unsignedTail, long archivedThrough) {
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
        long archivedThrough;
        Problem problem;
        // The chain's signed checkpoints and the next one expected, so that each record costs one comparison.
        TreeMap<Long, Checkpoint> signed;
        long nextCheckpoint = -1;
    }

    private final Map<String, PublicKey> keys;
    private final boolean keysPinned;
    private final boolean partial;
    private final Map<String, TreeMap<Long, Checkpoint>> checkpoints = new HashMap<>();
    private final Map<String, ChainState> chains = new TreeMap<>();
    private final List<Problem> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final MessageDigest sha256;
    private static final TreeMap<Long, Checkpoint> EMPTY = new TreeMap<>();
    private String lastChain;
    private ChainState lastState;

    /**
     * @param trusted public keys (by key id) checkpoints must be signed with; if empty, the keys
     *     found in the export are used and the report warns that they were not pinned
     * @param partial the input may start mid-chain (a time-range export); otherwise every chain must
     *     start at seq 1 or right after its archive marker
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

    /** Checkpoints must be given before the archive markers and records of their chain. */
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

    /**
     * An archive marker: the chain's records up to {@code seq} were archived, the last with this hash.
     * Accepted only if a signed checkpoint pins the same seq and hash; the chain then starts after it.
     */
    public void archived(String chain, long seq, String hash, long line) {
        ChainState s = chains.computeIfAbsent(chain, k -> new ChainState());
        TreeMap<Long, Checkpoint> cps = checkpoints.get(chain);
        Checkpoint cp = cps == null ? null : cps.get(seq);
        if (cp == null || !cp.hash().equals(hash)) {
            fail(chain, seq, line, "archive marker at seq " + seq + " is not pinned by a signed checkpoint (forged or altered marker)");
        } else if (s.records > 0) {
            fail(chain, seq, line, "archive marker after the chain's records");
        } else if (seq > s.archivedThrough) {
            s.archivedThrough = seq;
            s.lastSeq = seq;
            s.lastHash = hash;
            s.lastCheckpointSeq = seq;
        }
    }

    /** One record, in stored order. {@code values} holds {@link #FIELDS} plus {@code hash}. */
    public void record(Map<String, String> values, long line) {
        record(values, line, null);
    }

    /** As {@link #record(Map, long)}, with the content hash already computed (by a worker thread). */
    public void record(Map<String, String> values, long line, String computedHash) {
        long seq;
        try {
            seq = Long.parseLong(values.get("seq"));
        } catch (NumberFormatException e) {
            seq = -1;
        }
        String hash = values.get("hash");
        boolean contentMatches = (computedHash != null ? computedHash : hash(sha256, values)).equals(hash);
        record(values.get("chain"), seq, values.get("v"), values.get("prev"), hash, contentMatches, line);
    }

    /**
     * The checks, in order: format, seq order, link to the previous record, content against its hash,
     * and the signed checkpoint at this seq if there is one.
     *
     * @param seq -1 if the record has no valid seq
     * @param contentMatches whether SHA-256 of the record's canonical form equals {@code hash}
     */
    private void record(String chain, long seq, String format, String prev, String hash, boolean contentMatches, long line) {
        ChainState s;
        if (lastState != null && java.util.Objects.equals(lastChain, chain)) {
            s = lastState; // records come in runs of one chain
        } else {
            s = chains.computeIfAbsent(chain == null ? "?" : chain, k -> new ChainState());
            lastChain = chain;
            lastState = s;
        }
        if (seq < 0) {
            fail(chain, -1, line, "record without a valid seq");
            return;
        }
        s.records++;
        if (s.problem != null) {
            return; // report the first break per chain; later ones follow from it
        }
        if (s.records == 1 && partial && seq > s.lastSeq + 1) {
            // A range export starts mid-chain: take its first record's link on trust.
            warnings.add("chain " + chain + ": export starts at seq " + seq + "; records before it were not checked");
            s.lastSeq = seq - 1;
            s.lastHash = prev;
        }
        if (!FORMAT.equals(format)) {
            fail(chain, seq, line, "unknown record format " + format);
        } else if (seq <= s.lastSeq) {
            fail(chain, seq, line, "record reordered or duplicated: seq " + seq + " after " + s.lastSeq
                    + " (rows moved, or a forged row inserted)");
        } else if (seq != s.lastSeq + 1) {
            fail(chain, s.lastSeq + 1, line, "records missing or reordered: expected seq " + (s.lastSeq + 1) + " but found " + seq
                    + " (rows deleted, or moved)");
        } else if (!s.lastHash.equals(prev)) {
            fail(chain, seq, line, "broken link: prev does not match the hash of seq " + s.lastSeq
                    + " (a row was changed, removed or forged before it)");
        } else if (!contentMatches) {
            fail(chain, seq, line, "record altered: its content does not match its hash");
        } else {
            if (s.nextCheckpoint < 0 || s.nextCheckpoint < seq) {
                s.signed = checkpoints.getOrDefault(chain, EMPTY);
                Long next = s.signed.ceilingKey(seq);
                s.nextCheckpoint = next == null ? Long.MAX_VALUE : next;
            }
            Checkpoint cp = seq == s.nextCheckpoint ? s.signed.get(seq) : null;
            if (cp != null && !cp.hash().equals(hash)) {
                fail(chain, seq, line, "record does not match the signed checkpoint at seq " + seq
                        + " (history rewritten)");
                return;
            }
            if (cp != null) {
                s.checkpointsMatched++;
                s.lastCheckpointSeq = seq;
            }
            s.lastSeq = seq;
            s.lastHash = hash;
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
            out.add(new ChainReport(e.getKey(), s.records, s.lastSeq, s.lastHash, s.checkpointsMatched, tail, s.archivedThrough));
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

    private static final String USAGE = "usage: java ChainVerifier.java EXPORT.jsonl [--trust PUBLIC_KEY_BASE64_OR_FILE]... [--partial]";

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
                out.println(USAGE);
                return 2;
            }
        }
        if (file == null) {
            out.println(USAGE);
            return 2;
        }
        var v = new ChainVerifier(trusted, partial);
        long started = System.nanoTime();
        // Parsing and hashing are per line and independent: workers do them a block of lines at a
        // time, while this thread checks links, order, markers and checkpoints strictly in file order.
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "verify");
            t.setDaemon(true);
            return t;
        });
        var pending = new ArrayDeque<Future<Block>>();
        long lines = 0;
        try (InputStream in = file.equals("-") ? System.in : Files.newInputStream(Path.of(file))) {
            var blocks = new Blocks(in);
            boolean eof = false;
            while (!eof || !pending.isEmpty()) {
                while (!eof && pending.size() < threads * 3) {
                    byte[] block = blocks.next();
                    if (block == null) {
                        eof = true;
                    } else {
                        pending.add(pool.submit(() -> Block.parse(block)));
                    }
                }
                if (pending.isEmpty()) {
                    break;
                }
                Block b = pending.poll().get();
                for (Object item : b.items) {
                    if (item instanceof Parsed r) {
                        v.record(r.chain, r.seq, r.format, r.prev, r.hash, r.contentMatches, lines + r.line);
                        continue;
                    }
                    Other o = (Other) item;
                    Map<String, String> m = o.values;
                    long line = lines + o.line;
                    switch (String.valueOf(m.get("type"))) {
                        case "key" -> v.key(m.get("keyId"), m.get("publicKey"));
                        case "checkpoint" -> v.checkpoint(new Checkpoint(m.get("chain"), Long.parseLong(m.get("seq")),
                                m.get("hash"), m.get("time"), m.get("keyId"), m.get("signature")), line);
                        case "archive" -> v.archived(m.get("chain"), Long.parseLong(m.get("seq")), m.get("hash"), line);
                        case "record" -> v.record(m, line, hash(newDigest(), m));
                        default -> {
                            out.println("line " + line + ": unknown type " + m.get("type"));
                            return 2;
                        }
                    }
                }
                lines += b.lines;
            }
        } catch (ExecutionException e) {
            out.println("unreadable export: " + e.getCause().getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 2;
        } catch (RuntimeException e) {
            out.println("unreadable export near line " + lines + ": " + e.getMessage());
            return 2;
        } finally {
            pool.shutdownNow();
        }
        Report report = v.finish();
        double seconds = (System.nanoTime() - started) / 1e9;
        long records = report.chains().stream().mapToLong(ChainReport::records).sum();
        for (ChainReport c : report.chains()) {
            out.printf("chain %s: %d records, head seq %d, %d signed checkpoint(s) matched%s%n", c.chain(), c.records(),
                    c.headSeq(), c.checkpoints(), c.archivedThrough() > 0
                            ? ", archived up to seq " + c.archivedThrough() + " (marker pinned by a signed checkpoint)" : "");
        }
        report.warnings().forEach(w -> out.println("WARNING " + w));
        report.problems().forEach(p -> out.println("BROKEN  " + p));
        out.printf("%s: %d records in %d chain(s) checked in %.2f s (%.0f records/s)%n", report.ok() ? "VERIFIED" : "FAILED",
                records, report.chains().size(), seconds, records / Math.max(seconds, 1e-9));
        return report.ok() ? 0 : 1;
    }

    /** Cuts the input into blocks of whole lines (about 1 MiB each). */
    private static final class Blocks {
        private static final int SIZE = 1 << 20;
        private final InputStream in;
        private byte[] carry = new byte[0];
        private boolean eof;

        Blocks(InputStream in) {
            this.in = in;
        }

        /** The next block, ending after a '\n' (or at the end of input); null when nothing is left. */
        byte[] next() throws IOException {
            if (eof) {
                return null;
            }
            byte[] buf = Arrays.copyOf(carry, Math.max(SIZE, carry.length * 2));
            int n = carry.length;
            while (true) {
                int r = in.readNBytes(buf, n, buf.length - n);
                n += r;
                if (n < buf.length) {
                    eof = true;
                    carry = new byte[0];
                    return n == 0 ? null : Arrays.copyOf(buf, n);
                }
                int end = n - 1;
                while (end >= 0 && buf[end] != '\n') {
                    end--;
                }
                if (end >= 0) {
                    carry = Arrays.copyOfRange(buf, end + 1, n);
                    return end + 1 == buf.length ? buf : Arrays.copyOf(buf, end + 1);
                }
                buf = Arrays.copyOf(buf, buf.length * 2); // one line longer than a block
            }
        }
    }

    /** A record line, parsed and hashed by a worker. */
    private record Parsed(String chain, long seq, String format, String prev, String hash, boolean contentMatches, long line) {
    }

    /** Any other line (or a record in an unusual layout), as a map of its values. */
    private record Other(Map<String, String> values, long line) {
    }

    /**
     * One block's lines, parsed by a worker. Record lines in the export's own layout (keys in
     * {@link #FIELDS} order) are read straight from the bytes and their canonical form is hashed
     * without building strings; anything else goes through the general {@link #parseFlatJson}.
     */
    private static final class Block {
        private static final byte[][] NAMES = new byte[FIELDS.size()][]; // "name:" as hashed
        private static final byte[][] KEYS = new byte[FIELDS.size()][]; // "name" as a JSON key
        private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        /** Bytes a string value can hold without a closer look: printable ASCII other than '"' and '\\'. */
        private static final boolean[] PLAIN = new boolean[256];

        static {
            for (int c = 0x20; c < 0x7F; c++) {
                PLAIN[c] = c != '"' && c != '\\';
            }
            for (int i = 0; i < NAMES.length; i++) {
                NAMES[i] = (FIELDS.get(i) + ":").getBytes(StandardCharsets.US_ASCII);
                KEYS[i] = FIELDS.get(i).getBytes(StandardCharsets.US_ASCII);
            }
        }

        final List<Object> items = new ArrayList<>();
        long lines;

        private final MessageDigest sha = newDigest();
        private final byte[] digest = new byte[32];
        private byte[] canon = new byte[4096];
        private int size;
        // Per value: start and end offsets in the line, and flags.
        private final int[] start = new int[FIELDS.size() + 2];
        private final int[] end = new int[FIELDS.size() + 2];
        private final boolean[] escaped = new boolean[FIELDS.size() + 2];
        private final boolean[] ascii = new boolean[FIELDS.size() + 2];
        private final boolean[] isNull = new boolean[FIELDS.size() + 2];
        private int pos;

        static Block parse(byte[] b) {
            var block = new Block();
            int from = 0;
            while (from < b.length) {
                block.lines++;
                // The fast path reads a record up to its closing brace (it never crosses a line end);
                // only lines it does not take are cut at their '\n' and read in general.
                Parsed p = block.fastRecord(b, from, b.length, block.lines);
                int nl;
                if (p != null && (block.pos == b.length || b[block.pos] == '\n')) {
                    block.items.add(p);
                    nl = block.pos;
                } else {
                    nl = from;
                    while (nl < b.length && b[nl] != '\n') {
                        nl++;
                    }
                    int to = nl > from && b[nl - 1] == '\r' ? nl - 1 : nl;
                    block.other(b, from, to, block.lines);
                }
                from = nl + 1;
            }
            return block;
        }

        private void other(byte[] b, int from, int to, long line) {
            int i = from;
            while (i < to && isSpace(b[i])) {
                i++;
            }
            if (i < to) { // not blank
                items.add(new Other(parseFlatJson(new String(b, from, to - from, StandardCharsets.UTF_8)), line));
            }
        }

        /** Value slots: 0 is "type", 1..FIELDS are the fields, the last is "hash". */
        private Parsed fastRecord(byte[] b, int from, int to, long line) {
            pos = from;
            int last = FIELDS.size() + 1;
            if (!punct(b, to, '{') || !key(b, to, TYPE) || !value(b, to, 0) || !equalsAscii(b, 0, "record")) {
                return null;
            }
            for (int f = 1; f <= last; f++) {
                if (!punct(b, to, ',') || !key(b, to, f == last ? HASH : KEYS[f - 1]) || !value(b, to, f)) {
                    return null;
                }
            }
            if (!punct(b, to, '}')) {
                return null;
            }
            skip(b, to);
            // The canonical form is never longer than the line plus the names and lengths.
            size = 0;
            ensure(pos - from + 32 * NAMES.length + 64);
            for (int f = 1; f < last; f++) {
                byte[] name = NAMES[f - 1];
                System.arraycopy(name, 0, canon, size, name.length);
                size += name.length;
                if (isNull[f]) {
                    canon[size++] = '~';
                } else if (escaped[f]) {
                    String v = text(b, f);
                    append(Integer.toString(v.length()).getBytes(StandardCharsets.US_ASCII));
                    add((byte) ':');
                    append(v.getBytes(StandardCharsets.UTF_8));
                } else {
                    appendLength(ascii[f] ? end[f] - start[f] : utf16Length(b, start[f], end[f]));
                    canon[size++] = ':';
                    System.arraycopy(b, start[f], canon, size, end[f] - start[f]);
                    size += end[f] - start[f];
                }
                canon[size++] = '\n';
            }
            sha.update(canon, 0, size);
            try {
                sha.digest(digest, 0, 32);
            } catch (DigestException e) {
                throw new IllegalStateException(e);
            }
            boolean matches = !isNull[last] && !escaped[last] && end[last] - start[last] == 64;
            for (int k = 0; matches && k < 32; k++) {
                int at = start[last] + 2 * k;
                matches = b[at] == HEX[(digest[k] >> 4) & 15] && b[at + 1] == HEX[digest[k] & 15];
            }
            long seq;
            try {
                seq = isNull[3] ? -1 : Long.parseLong(text(b, 3));
            } catch (NumberFormatException e) {
                seq = -1;
            }
            String format = equalsAscii(b, 1, FORMAT) ? FORMAT : text(b, 1);
            return new Parsed(chain(b), seq, format, text(b, 4), text(b, last), matches, line);
        }

        private String lastChain;
        private byte[] lastChainBytes;

        /** The chain name, as the same String for a run of one chain's records. */
        private String chain(byte[] b) {
            int n = end[2] - start[2];
            if (lastChainBytes != null && !isNull[2] && !escaped[2] && lastChainBytes.length == n
                    && Arrays.equals(lastChainBytes, 0, n, b, start[2], end[2])) {
                return lastChain;
            }
            lastChain = text(b, 2);
            lastChainBytes = isNull[2] || escaped[2] ? null : Arrays.copyOfRange(b, start[2], end[2]);
            return lastChain;
        }

        private static final byte[] TYPE = "type".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] HASH = "hash".getBytes(StandardCharsets.US_ASCII);

        private static boolean isSpace(byte c) {
            return c == ' ' || c == '\t' || c == '\r' || c == '\n';
        }

        /** Skips blanks within the line (never its end). */
        private void skip(byte[] b, int to) {
            while (pos < to && (b[pos] == ' ' || b[pos] == '\t' || b[pos] == '\r')) {
                pos++;
            }
        }

        private boolean punct(byte[] b, int to, char c) {
            skip(b, to);
            if (pos < to && b[pos] == c) {
                pos++;
                return true;
            }
            return false;
        }

        /** A key written plainly, followed by ':'. */
        private boolean key(byte[] b, int to, byte[] name) {
            skip(b, to);
            int n = name.length;
            if (pos + n + 2 > to || b[pos] != '"' || b[pos + n + 1] != '"') {
                return false;
            }
            for (int k = 0; k < n; k++) {
                if (b[pos + 1 + k] != name[k]) {
                    return false;
                }
            }
            pos += n + 2;
            return punct(b, to, ':');
        }

        /** A string, null, or bare number/boolean value into slot f. */
        private boolean value(byte[] b, int to, int f) {
            skip(b, to);
            if (pos >= to) {
                return false;
            }
            isNull[f] = false;
            escaped[f] = false;
            ascii[f] = true;
            if (b[pos] == '"') {
                int i = pos + 1;
                while (i < to) {
                    while (i < to && PLAIN[b[i] & 0xFF]) {
                        i++; // the common case: printable ASCII other than '"' and '\\'
                    }
                    if (i >= to || b[i] == '"') {
                        break;
                    }
                    byte c = b[i];
                    if (c == '\\') {
                        if (i + 1 < to && b[i + 1] == '\n') {
                            return false;
                        }
                        escaped[f] = true;
                        i++;
                    } else if (c < 0) {
                        ascii[f] = false;
                    } else if (c == '\n') {
                        return false; // a string never spans lines
                    }
                    i++;
                }
                if (i >= to) {
                    return false;
                }
                start[f] = pos + 1;
                end[f] = i;
                pos = i + 1;
                return true;
            }
            int i = pos;
            while (i < to && b[i] != ',' && b[i] != '}' && !isSpace(b[i])) {
                if (b[i] == '"' || b[i] == '\\' || b[i] < 0) {
                    return false;
                }
                i++;
            }
            start[f] = pos;
            end[f] = i;
            pos = i;
            isNull[f] = i - start[f] == 4 && b[start[f]] == 'n' && b[start[f] + 1] == 'u' && b[start[f] + 2] == 'l'
                    && b[start[f] + 3] == 'l';
            return i > start[f];
        }

        private boolean equalsAscii(byte[] b, int f, String s) {
            if (isNull[f] || escaped[f] || end[f] - start[f] != s.length()) {
                return false;
            }
            for (int k = 0; k < s.length(); k++) {
                if (b[start[f] + k] != s.charAt(k)) {
                    return false;
                }
            }
            return true;
        }

        /** Slot f as a string (decoding escapes), or null. */
        private String text(byte[] b, int f) {
            if (isNull[f]) {
                return null;
            }
            if (!escaped[f]) {
                return new String(b, start[f], end[f] - start[f], ascii[f] ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
            }
            String quoted = new String(b, start[f] - 1, end[f] - start[f] + 2, StandardCharsets.UTF_8);
            return string(quoted, new int[] {0});
        }

        /** Length in UTF-16 units of valid UTF-8: one per code point, two for those beyond U+FFFF. */
        private static int utf16Length(byte[] b, int from, int to) {
            int n = 0;
            for (int i = from; i < to; i++) {
                int c = b[i] & 0xFF;
                if ((c & 0xC0) != 0x80) {
                    n += c >= 0xF0 ? 2 : 1;
                }
            }
            return n;
        }

        private void appendLength(int n) {
            if (n >= 100) {
                for (byte d : Integer.toString(n).getBytes(StandardCharsets.US_ASCII)) {
                    canon[size++] = d;
                }
                return;
            }
            if (n >= 10) {
                canon[size++] = (byte) ('0' + n / 10);
            }
            canon[size++] = (byte) ('0' + n % 10);
        }

        private void add(byte c) {
            ensure(1);
            canon[size++] = c;
        }

        private void append(byte[] bytes) {
            ensure(bytes.length);
            System.arraycopy(bytes, 0, canon, size, bytes.length);
            size += bytes.length;
        }

        private void ensure(int more) {
            if (size + more > canon.length) {
                canon = Arrays.copyOf(canon, Math.max(canon.length * 2, size + more));
            }
        }
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
