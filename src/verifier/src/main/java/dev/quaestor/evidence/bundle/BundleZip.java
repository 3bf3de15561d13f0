package dev.quaestor.evidence.bundle;

import dev.quaestor.evidence.Plain;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The ZIP file an evidence bundle is (docs/audit-format.md, section 7.1): every entry stored (not compressed), named
 * in UTF-8, with a fixed time, no extra fields, no comments and no data descriptors, in the bundle's order. So one
 * list of files has exactly one ZIP, a byte of the ZIP is a byte of one file or of one header, and a reader can
 * rebuild the ZIP from the files it read and compare: anything added, removed or altered is found at its offset.
 */
public final class BundleZip {

    /** A ZIP the format does not allow, and where: the byte offset in the ZIP and what is there. */
    public static final class Damaged extends Exception {
        private final long offset;

        Damaged(long offset, String message) {
            super("byte " + Plain.n(offset) + " of the ZIP: " + message, null, false, false);
            this.offset = offset;
        }

        public long offset() {
            return offset;
        }
    }

    private static final int LOCAL = 0x04034b50;
    private static final int CENTRAL = 0x02014b50;
    private static final int END = 0x06054b50;
    /** Version 1.0: stored entries need nothing later. */
    private static final short VERSION = 10;
    /** Bit 11: the name is UTF-8. */
    private static final short UTF8 = 0x0800;
    /** 1980-01-01 00:00, the first time a ZIP can hold: the bundle's time is in its manifest, not in its headers. */
    private static final short TIME = 0;
    private static final short DATE = (1 << 5) | 1;
    /** At most this many files; at most this many bytes in all (no ZIP64). */
    public static final int MAX_FILES = 65_535;
    public static final long MAX_BYTES = 0xffff_fffeL;
    /** The largest bundle the verifier checks (in memory): far above what the server makes (section 7.1). */
    public static final long MAX_CHECKED = 1L << 30;

    private BundleZip() {
    }

    /** The ZIP of {@code files}, in their order. */
    public static byte[] write(Map<String, byte[]> files) {
        return layout(files, null);
    }

    /**
     * A bundle's ZIP, read: its files in order, and where it is not exactly the ZIP {@link #write} makes of them
     * (null if it is).
     */
    public record Opened(Map<String, byte[]> files, Damaged damaged) {
    }

    /**
     * Reads a bundle's ZIP: its files, in order, by their headers, and then whether the ZIP is exactly the one
     * {@link #write} makes of them; where it differs, the first byte that does and what it belongs to. Throws
     * {@link Damaged} if not even the files can be read.
     */
    public static Opened open(byte[] zip) throws Damaged {
        var files = new LinkedHashMap<String, byte[]>();
        ByteBuffer b = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        int at = 0;
        while (at + 4 <= zip.length && b.getInt(at) == LOCAL) {
            if (at + 30 > zip.length) {
                throw new Damaged(at, "a file's header is cut off");
            }
            if ((b.getShort(at + 6) & 0x0008) != 0) {
                throw new Damaged(at + 6, "a file with a data descriptor; a bundle's files give their sizes in their headers");
            }
            if (b.getShort(at + 8) != 0) {
                throw new Damaged(at + 8, "a compressed file; a bundle's files are stored as they are");
            }
            long size = Integer.toUnsignedLong(b.getInt(at + 18));
            int nameLength = Short.toUnsignedInt(b.getShort(at + 26));
            int extraLength = Short.toUnsignedInt(b.getShort(at + 28));
            long dataStart = (long) at + 30 + nameLength + extraLength;
            if (dataStart + size > zip.length) {
                throw new Damaged(at + 18, "a file's size runs past the end of the ZIP");
            }
            String name = new String(zip, at + 30, nameLength, StandardCharsets.UTF_8);
            if (files.containsKey(name)) {
                throw new Damaged(at + 30, "a second file named " + name);
            }
            byte[] data = new byte[(int) size];
            System.arraycopy(zip, (int) dataStart, data, 0, (int) size);
            files.put(name, data);
            at = (int) (dataStart + size);
            if (files.size() > MAX_FILES) {
                throw new Damaged(at, "more than " + Plain.n(MAX_FILES) + " files");
            }
        }
        if (files.isEmpty()) {
            throw new Damaged(0, "not a ZIP file: it does not start with a file's header");
        }
        var parts = new ArrayList<Part>();
        byte[] expected = layout(files, parts);
        int n = Math.min(expected.length, zip.length);
        for (int i = 0; i < n; i++) {
            if (expected[i] != zip[i]) {
                return new Opened(files, new Damaged(i, describe(parts, i)));
            }
        }
        if (zip.length > expected.length) {
            return new Opened(files, new Damaged(expected.length, Plain.n(zip.length - expected.length)
                    + " byte(s) after the end of the ZIP"));
        }
        if (zip.length < expected.length) {
            return new Opened(files, new Damaged(zip.length, "the ZIP ends early, in " + partAt(parts, zip.length)
                    + ": the rest of the bundle is missing"));
        }
        return new Opened(files, null);
    }

    /** A stretch of the ZIP and what it holds. */
    private record Part(int start, int end, String what, String file, int crcAt) {
    }

    private static String describe(List<Part> parts, int offset) {
        for (Part p : parts) {
            if (offset >= p.start && offset < p.end) {
                if (p.crcAt >= 0 && offset >= p.crcAt && offset < p.crcAt + 4) {
                    return "the CRC-32 in " + p.what + " does not match " + p.file + "'s bytes: " + p.file + " or its header was changed";
                }
                return p.what + " differs from the ZIP of the bundle's files (a header was changed, or a byte added or removed)";
            }
        }
        return "the end of the ZIP differs from the ZIP of the bundle's files";
    }

    /** What the ZIP holds at {@code offset}. */
    private static String partAt(List<Part> parts, int offset) {
        for (Part p : parts) {
            if (offset >= p.start && offset < p.end) {
                return p.what;
            }
        }
        return "the ZIP's end record";
    }

    private static byte[] layout(Map<String, byte[]> files, List<Part> parts) {
        if (files.size() > MAX_FILES) {
            throw new IllegalArgumentException("a bundle holds at most " + MAX_FILES + " files");
        }
        var out = new ByteArrayOutputStream();
        var central = new ByteArrayOutputStream();
        var offsets = new ArrayList<Integer>();
        var crcs = new ArrayList<Integer>();
        for (var f : files.entrySet()) {
            byte[] name = f.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] data = f.getValue();
            var crc = new CRC32();
            crc.update(data);
            int start = out.size();
            offsets.add(start);
            crcs.add((int) crc.getValue());
            ByteBuffer h = ByteBuffer.allocate(30).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(LOCAL).putShort(VERSION).putShort(UTF8).putShort((short) 0).putShort(TIME).putShort(DATE)
                    .putInt((int) crc.getValue()).putInt(data.length).putInt(data.length).putShort((short) name.length).putShort((short) 0);
            out.writeBytes(h.array());
            out.writeBytes(name);
            if (parts != null) {
                parts.add(new Part(start, out.size(), "the header of " + f.getKey(), f.getKey(), start + 14));
                parts.add(new Part(out.size(), out.size() + data.length, "the bytes of " + f.getKey(), f.getKey(), -1));
            }
            out.writeBytes(data);
            if ((long) out.size() > MAX_BYTES) {
                throw new IllegalArgumentException("a bundle holds at most 4 GiB");
            }
        }
        int centralStart = out.size();
        int i = 0;
        for (var f : files.entrySet()) {
            byte[] name = f.getKey().getBytes(StandardCharsets.UTF_8);
            int size = f.getValue().length;
            int start = centralStart + central.size();
            ByteBuffer h = ByteBuffer.allocate(46).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(CENTRAL).putShort(VERSION).putShort(VERSION).putShort(UTF8).putShort((short) 0).putShort(TIME).putShort(DATE)
                    .putInt(crcs.get(i)).putInt(size).putInt(size).putShort((short) name.length).putShort((short) 0)
                    .putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt(0).putInt(offsets.get(i));
            central.writeBytes(h.array());
            central.writeBytes(name);
            if (parts != null) {
                parts.add(new Part(start, centralStart + central.size(), "the directory entry of " + f.getKey(), f.getKey(), start + 16));
            }
            i++;
        }
        out.writeBytes(central.toByteArray());
        ByteBuffer end = ByteBuffer.allocate(22).order(ByteOrder.LITTLE_ENDIAN);
        end.putInt(END).putShort((short) 0).putShort((short) 0).putShort((short) files.size()).putShort((short) files.size())
                .putInt(central.size()).putInt(centralStart).putShort((short) 0);
        if (parts != null) {
            parts.add(new Part(out.size(), out.size() + 22, "the ZIP's end record", null, -1));
        }
        out.writeBytes(end.array());
        return out.toByteArray();
    }
}
