package dev.quaestor.evidence.fast;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.ExportReader;
import dev.quaestor.evidence.ExportSink;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads an export into the same {@link ExportSink} calls as {@link ExportReader}, faster: reading a
 * line and hashing its record do not depend on other lines, so worker threads do that a chunk of lines
 * at a time, record and node lines in the writer's own layout straight from their bytes
 * ({@link RecordLine}, {@link NodeLine}), any other line as the plain reader does; the calling thread
 * hands the results to the sink strictly in order. The tests check that both readers report the same.
 */
public final class FastExportReader {

    /** Lines are read a chunk at a time; chunks are reused (large arrays cost the garbage collector more). */
    private static final int CHUNK = 1 << 18;

    /** One line, read by a fast path or in general. */
    private record Parsed(int line, CanonicalRecord record, String storedHash, NodeLine.Read node, ExportReader.Line general) {
    }

    /** The lines of one chunk, numbered from 1 within it, and the chunk, to be reused. */
    private record Batch(List<Parsed> items, int lines, byte[] chunk) {
    }

    private FastExportReader() {
    }

    /** Reads every line of {@code in} into {@code sink}, with a worker per processor; returns the number of lines. */
    public static long read(InputStream in, ExportSink sink) throws IOException, ExportReader.Unreadable {
        return read(in, sink, Runtime.getRuntime().availableProcessors());
    }

    /** As {@link #read(InputStream, ExportSink)}, with {@code workers} threads (0: all in the calling thread). */
    public static long read(InputStream in, ExportSink sink, int workers) throws IOException, ExportReader.Unreadable {
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
                        if (end == 0) { // one line longer than the chunk: read on, up to the longest line allowed
                            if (n > ExportReader.MAX_LINE) {
                                while (!pending.isEmpty()) { // the lines before it first: any of them may be unreadable
                                    lines = dispatch(pending.poll().get(), lines, sink, free);
                                }
                                throw ExportReader.unreadable(lines + 1, ExportReader.TOO_LONG);
                            }
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

    /**
     * Reads the lines of {@code b[0, length)}; runs on a worker. Lines are numbered from 1 within the
     * chunk (the chunks before may still be being read); dispatching adds the lines before it.
     */
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
                items.add(new Parsed(line, read.record(), read.storedHash(), null, null));
                from = read.end() + 1;
                continue;
            }
            NodeLine.Read node = NodeLine.startsNode(b, from, length) ? NodeLine.read(b, from, length) : null;
            if (node != null) {
                items.add(new Parsed(line, null, null, node, null));
                from = node.end() + 1;
                continue;
            }
            int nl = from;
            while (nl < length && b[nl] != '\n') {
                nl++;
            }
            ExportReader.Line general = ExportReader.parse(b, from, nl, line);
            if (general != null) {
                if (general.record() != null) {
                    general.record().hashInAdvance();
                }
                items.add(new Parsed(line, null, null, null, general));
                if (general.error() != null) {
                    break; // nothing after an unreadable line is read
                }
            }
            from = nl + 1;
        }
        return new Batch(items, line, b);
    }

    /** Hands a chunk's lines to the sink, in order; returns the line count so far. */
    private static long dispatch(Batch batch, long before, ExportSink sink, ArrayDeque<byte[]> free) throws ExportReader.Unreadable {
        for (Parsed p : batch.items) {
            long line = before + p.line;
            if (p.record != null) {
                sink.record(p.record, p.storedHash, line);
            } else if (p.node != null) {
                sink.node(p.node.log(), p.node.level(), p.node.index(), p.node.hash(), line);
            } else {
                ExportReader.Line g = p.general;
                new ExportReader.Line(line, g.record(), g.storedHash(), g.other(), g.error()).to(sink);
            }
        }
        if (batch.chunk.length == CHUNK) {
            free.push(batch.chunk);
        }
        return before + batch.lines;
    }
}
