package dev.quaestor.evidence;

import dev.quaestor.evidence.fast.NodeLine;
import dev.quaestor.evidence.fast.RecordLine;
import dev.quaestor.evidence.v1.V1Checkpoint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads an export (JSON Lines, docs/audit-format.md, section 6) and hands each line, with its line
 * number, to an {@link ExportSink}, in order. It checks only that each line is well formed and has the
 * names its type needs; what the lines mean is the sink's business. Exports written by the version-1
 * server ({@code chain} for {@code log}, {@code null} for absent fields, key lines with {@code keyId}
 * and {@code publicKey}) are read too.
 *
 * <p>Reading a line and hashing its record do not depend on other lines, so worker threads do that a
 * chunk of lines at a time while the calling thread hands the results to the sink strictly in order.
 */
public final class ExportReader {

    /** The input is not an export: a line is malformed. */
    public static final class Unreadable extends Exception {
        public Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    /** Lines are read a chunk at a time; chunks are reused (large arrays cost the garbage collector more). */
    private static final int CHUNK = 1 << 18;

    /** One line, read: a record (hashed), a stored node, another line's names and values, or why it cannot be read. */
    private record Parsed(int line, CanonicalRecord record, String storedHash, NodeLine.Read node, Map<String, String> other,
            String error) {
    }

    /** The lines of one chunk, numbered from 1 within it, and the chunk, to be reused. */
    private record Batch(List<Parsed> items, int lines, byte[] chunk) {
    }

    private ExportReader() {
    }

    /** Reads every line of {@code in} into {@code sink}, with a worker per processor; returns the number of lines. */
    public static long read(InputStream in, ExportSink sink) throws IOException, Unreadable {
        return read(in, sink, Runtime.getRuntime().availableProcessors());
    }

    /** As {@link #read(InputStream, ExportSink)}, with {@code workers} threads (0: all in the calling thread). */
    public static long read(InputStream in, ExportSink sink, int workers) throws IOException, Unreadable {
        ExecutorService pool = workers == 0 ? null : Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "export-reader");
            t.setDaemon(true);
            return t;
        });
        var pending = new ArrayDeque<Future<Batch>>();
        var free = new ArrayDeque<byte[]>();
        boolean keepBytes = sink.needsRecordBytes();
        long lines = 0;
        try {
            byte[] carry = new byte[0];
            boolean eof = false;
            while (!eof || !pending.isEmpty()) {
                while (!eof && pending.size() < Math.max(1, 2 * workers)) {
                    byte[] chunk = free.isEmpty() || carry.length >= CHUNK / 2 ? new byte[Math.max(CHUNK, 2 * carry.length)] : free.pop();
                    System.arraycopy(carry, 0, chunk, 0, carry.length);
                    int n = carry.length + in.readNBytes(chunk, carry.length, chunk.length - carry.length);
                    int end = n;
                    if (n == chunk.length) {
                        while (end > 0 && chunk[end - 1] != '\n') {
                            end--;
                        }
                        if (end == 0) { // one line longer than the chunk: read on
                            carry = Arrays.copyOf(chunk, n);
                            continue;
                        }
                    } else {
                        eof = true;
                    }
                    carry = Arrays.copyOfRange(chunk, end, n);
                    int length = end;
                    if (pool == null) {
                        lines = dispatch(parse(chunk, length, keepBytes), lines, sink, free);
                    } else {
                        pending.add(pool.submit(() -> parse(chunk, length, keepBytes)));
                    }
                }
                if (!pending.isEmpty()) {
                    lines = dispatch(pending.poll().get(), lines, sink, free);
                }
            }
            return lines;
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading the export failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    /** Reads the lines of {@code b[0, length)}; runs on a worker. */
    private static Batch parse(byte[] b, int length, boolean keepBytes) {
        var items = new ArrayList<Parsed>(length / 256);
        var fast = new RecordLine();
        int line = 0;
        int from = 0;
        while (from < length) {
            line++;
            // Only record lines go to the fast path, so that other lines do not shape how it is compiled.
            RecordLine.Read read = RecordLine.startsRecord(b, from, length) ? fast.read(b, from, length, keepBytes) : null;
            if (read != null) {
                read.record().hashInAdvance();
                items.add(new Parsed(line, read.record(), read.storedHash(), null, null, null));
                from = read.end() + 1;
                continue;
            }
            NodeLine.Read node = NodeLine.startsNode(b, from, length) ? NodeLine.read(b, from, length) : null;
            if (node != null) {
                items.add(new Parsed(line, null, null, node, null, null));
                from = node.end() + 1;
                continue;
            }
            int nl = from;
            while (nl < length && b[nl] != '\n') {
                nl++;
            }
            Parsed p = parseLine(b, from, nl, line);
            if (p != null) {
                items.add(p);
                if (p.error != null) {
                    break; // nothing after an unreadable line is read
                }
            }
            from = nl + 1;
        }
        return new Batch(items, line, b);
    }

    /** A line the fast path declined: read in general. */
    private static Parsed parseLine(byte[] b, int from, int to, int line) {
        String text;
        try {
            text = decode(b, from, to);
        } catch (CharacterCodingException e) {
            return new Parsed(line, null, null, null, null, "the line is not valid UTF-8 text");
        }
        if (text.isBlank()) {
            return null;
        }
        Map<String, String> m;
        try {
            m = FlatJson.readAllowingNull(text, line);
        } catch (FlatJson.Malformed e) {
            return new Parsed(line, null, null, null, null, e.detail());
        }
        if ("record".equals(m.get("type")) && m.containsKey("hash")) {
            m.remove("type");
            String hash = m.remove("hash");
            CanonicalRecord r = CanonicalRecord.of(m);
            r.hashInAdvance();
            return new Parsed(line, r, hash, null, null, null);
        }
        return new Parsed(line, null, null, null, m, null);
    }

    private static String decode(byte[] b, int from, int to) throws CharacterCodingException {
        for (int i = from; i < to; i++) {
            if (b[i] < 0) {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, from, to - from)).toString();
            }
        }
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** Hands a chunk's lines to the sink, in order; returns the line count so far. */
    private static long dispatch(Batch batch, long before, ExportSink sink, ArrayDeque<byte[]> free) throws Unreadable {
        for (Parsed p : batch.items) {
            long line = before + p.line;
            if (p.error != null) {
                throw unreadable(line, p.error);
            }
            if (p.record != null) {
                sink.record(p.record, p.storedHash, line);
            } else if (p.node != null) {
                sink.node(p.node.log(), p.node.level(), p.node.index(), p.node.hash(), line);
            } else {
                other(p.other, line, sink);
            }
        }
        if (batch.chunk.length == CHUNK) {
            free.push(batch.chunk);
        }
        return before + batch.lines;
    }

    /** A line other than a record in the writer's layout. */
    private static void other(Map<String, String> m, long line, ExportSink sink) throws Unreadable {
        String type = m.get("type");
        if (type == null) {
            throw unreadable(line, "the line has no \"type\"");
        }
        switch (type) {
            case "record" -> throw unreadable(line, "the record has no stored \"hash\"");
            case "checkpoint" -> {
                if (m.containsKey("note")) {
                    sink.checkpoint(need(m, "log", line), decimal(m, "size", line), m.get("note"), line);
                } else {
                    sink.checkpointV1(new V1Checkpoint(log(m, line), decimal(m, "seq", line), need(m, "hash", line),
                            need(m, "time", line), need(m, "keyId", line), need(m, "signature", line)), line);
                }
            }
            case "archive" -> sink.archive(log(m, line), decimal(m, "seq", line), need(m, "hash", line), line);
            case "node" -> {
                long level = decimal(m, "level", line);
                if (level > 63) {
                    throw unreadable(line, "a node's level is at most 63, not " + level);
                }
                sink.node(need(m, "log", line), (int) level, decimal(m, "index", line), need(m, "hash", line), line);
            }
            case "key" -> {
                if (m.containsKey("vkey")) {
                    sink.key(m.get("vkey"), line);
                } else {
                    sink.keyV1(need(m, "keyId", line), need(m, "publicKey", line), line);
                }
            }
            default -> throw unreadable(line, "unknown line type \"" + type + "\"");
        }
    }

    /** The log's name: {@code log}, or {@code chain} in lines written by the version-1 server. */
    private static String log(Map<String, String> m, long line) throws Unreadable {
        return m.containsKey("log") ? m.get("log") : need(m, "chain", line);
    }

    private static String need(Map<String, String> m, String name, long line) throws Unreadable {
        String v = m.get(name);
        if (v == null) {
            throw unreadable(line, "the line has no \"" + name + "\"");
        }
        return v;
    }

    private static long decimal(Map<String, String> m, String name, long line) throws Unreadable {
        long v = Decimal.parse(need(m, name, line));
        if (v < 0) {
            throw unreadable(line, "\"" + name + "\" must be a whole number, not " + m.get(name));
        }
        return v;
    }

    private static Unreadable unreadable(long line, String message) {
        return new Unreadable("line " + Plain.n(line) + ": " + message);
    }
}
