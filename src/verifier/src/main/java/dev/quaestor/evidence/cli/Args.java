package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.ExportReader;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.check.TimeStampCheck;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.fast.FastExportReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A command's arguments: positional values, options (repeatable {@code --trust} and {@code --tsa-ca}) and flags. */
final class Args {

    /** Options that take a value. */
    private static final Set<String> VALUED = Set.of("--trust", "--out", "--tsa-ca", "--tsa-max-delay", "--json",
            "--expect-checkpoint", "--max-anchor-gap");

    final List<String> positional = new ArrayList<>();
    final List<String> trust = new ArrayList<>();
    final List<String> tsaCa = new ArrayList<>();
    final List<String> expect = new ArrayList<>();
    final List<String> flags = new ArrayList<>();
    String out;
    String tsaMaxDelay;
    String maxAnchorGap;
    String json;

    /** Reads {@code args}; {@code allowed} are the options this command takes. */
    static Args parse(List<String> args, Set<String> allowed) throws UsageError {
        var a = new Args();
        for (int i = 0; i < args.size(); i++) {
            String s = args.get(i);
            if (s.startsWith("--")) {
                if (!allowed.contains(s)) {
                    throw new UsageError("unknown option " + s);
                }
                if (VALUED.contains(s)) {
                    if (i + 1 >= args.size()) {
                        throw new UsageError(s + " needs a value");
                    }
                    String v = args.get(++i);
                    switch (s) {
                        case "--trust" -> a.trust.add(v);
                        case "--tsa-ca" -> a.tsaCa.add(v);
                        case "--tsa-max-delay" -> a.tsaMaxDelay = v;
                        case "--json" -> a.json = v;
                        case "--expect-checkpoint" -> a.expect.add(v);
                        case "--max-anchor-gap" -> a.maxAnchorGap = v;
                        default -> a.out = v;
                    }
                } else {
                    a.flags.add(s);
                }
            } else {
                a.positional.add(s);
            }
        }
        return a;
    }

    boolean has(String flag) {
        return flags.contains(flag);
    }

    void expect(int count, String what) throws UsageError {
        if (positional.size() != count) {
            throw new UsageError("expected " + what);
        }
    }

    /** The keys given with {@code --trust}: each a key, or a file of keys (one per line; blank lines and # comments skipped). */
    TrustedKeys trusted() throws UsageError {
        if (trust.isEmpty()) {
            throw new UsageError("say which key to trust with --trust KEY.pub (the log's published verifier key)");
        }
        var keys = new ArrayList<String>();
        for (String t : trust) {
            Path p = Path.of(t);
            if (Files.isDirectory(p)) {
                throw new UsageError("--trust " + t + ": is a directory, not a key or a file of keys");
            }
            if (Files.exists(p)) {
                int before = keys.size();
                for (String line : keyFile(p).split("\n")) {
                    if (!line.isBlank() && !line.strip().startsWith("#")) {
                        keys.add(line.strip());
                    }
                }
                if (keys.size() == before) {
                    throw new UsageError("--trust " + t + ": the file holds no key (only blank lines or # comments)");
                }
            } else {
                try {
                    TrustedKeys.parse(List.of(t));
                } catch (IllegalArgumentException e) {
                    throw new UsageError("--trust: " + e.getMessage() + " (and there is no file of that name)");
                }
                keys.add(t);
            }
        }
        try {
            return TrustedKeys.parse(keys);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--trust: " + e.getMessage());
        }
    }

    /** Token checks against {@code --tsa-ca} roots (PEM) within {@code --tsa-max-delay} (30m, 2h, PT1H; 1 h); or null. */
    TimeStampCheck stamps() throws UsageError {
        if (tsaCa.isEmpty()) {
            if (tsaMaxDelay != null || maxAnchorGap != null) {
                throw new UsageError((tsaMaxDelay != null ? "--tsa-max-delay" : "--max-anchor-gap") + " needs the TSA's root:"
                        + " --tsa-ca TSA-ROOT.pem");
            }
            return null;
        }
        var roots = new ArrayList<X509Certificate>();
        for (String file : tsaCa) {
            try (var in = Files.newInputStream(Path.of(file))) {
                List<X509Certificate> found = TimeStampCheck.certificates(in);
                if (found.isEmpty()) {
                    throw new UsageError("--tsa-ca: " + file + " holds no certificate");
                }
                roots.addAll(found);
            } catch (IOException e) {
                throw new UsageError("cannot read " + file + ": " + reason(e));
            } catch (GeneralSecurityException e) {
                throw new UsageError("--tsa-ca: " + file + " is not a PEM file of X.509 certificates (" + e.getMessage() + ")");
            }
        }
        return new TimeStampCheck(roots, tsaMaxDelay == null ? TimeStampCheck.MAX_DELAY : duration("--tsa-max-delay", tsaMaxDelay));
    }

    /** {@code --max-anchor-gap}, or null. */
    Duration maxAnchorGap() throws UsageError {
        return maxAnchorGap == null ? null : duration("--max-anchor-gap", maxAnchorGap);
    }

    private static Duration duration(String option, String s) throws UsageError {
        try {
            if (s.matches("[0-9]{1,9}[smh]")) {
                long n = Long.parseLong(s.substring(0, s.length() - 1));
                return s.endsWith("s") ? Duration.ofSeconds(n) : s.endsWith("m") ? Duration.ofMinutes(n) : Duration.ofHours(n);
            }
            Duration d = Duration.parse(s);
            if (!d.isNegative()) {
                return d;
            }
        } catch (DateTimeParseException e) {
            // said below
        }
        throw new UsageError(option + ": not a duration (such as 30m, 2h, 90s or PT1H): " + s);
    }

    /** The largest proof, note or key file read: far above what the server writes (docs/audit-format.md, section 4). */
    static final long MAX_SMALL_FILE = 16L << 20;

    /** A file read whole; refused unread if over {@code most} or {@code copies} times too big for the heap (bundles). */
    static byte[] bytes(String file, long most, String what, int copies) throws UsageError {
        Path p = Path.of(file);
        try {
            long size = Files.size(p);
            if (size > most) {
                throw new UsageError("cannot read " + file + ": it is " + Plain.n(size) + " bytes, more than the "
                        + Plain.n(most) + " " + what + " may be");
            }
            long heap = Runtime.getRuntime().maxMemory();
            if (size * copies > heap / 2) {
                throw new UsageError("cannot read " + file + ": " + what + " of " + Plain.n(size) + " bytes is checked in "
                        + "memory, and this JVM may use " + Plain.n(heap) + " bytes: run java -Xmx" + ((size * copies * 2 >> 20) + 64)
                        + "m -jar quaestor-verify.jar …");
            }
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UsageError("cannot read " + file + ": " + reason(e));
        }
    }

    /**
     * A file of keys' text: a regular file as {@link #read}, anything else that exists (a device such as /dev/null, a
     * pipe such as {@code <(…)}) read to its end, up to the same size.
     */
    private static String keyFile(Path p) throws UsageError {
        if (Files.isRegularFile(p)) {
            return read(p);
        }
        byte[] b;
        try (var in = Files.newInputStream(p)) {
            b = in.readNBytes((int) MAX_SMALL_FILE + 1);
        } catch (IOException e) {
            throw new UsageError("cannot read " + p + ": " + reason(e));
        }
        if (b.length > MAX_SMALL_FILE) {
            throw new UsageError("cannot read " + p + ": it is more than the " + Plain.n(MAX_SMALL_FILE) + " bytes a key file may be");
        }
        return utf8(b, p);
    }

    /** A proof, note or key file's text. */
    static String read(Path p) throws UsageError {
        return utf8(bytes(p.toString(), MAX_SMALL_FILE, "a proof, note or key file", 1), p);
    }

    private static String utf8(byte[] b, Path p) throws UsageError {
        try {
            return Hex.utf8(b, 0, b.length);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new UsageError("cannot read " + p + ": it is not UTF-8 text");
        }
    }

    /** Reads an export file (or standard input, for -) into {@code sink}: with the fast reader, or the plain one, line by line. */
    static void readExport(String file, ExportSink sink, boolean plain) throws UsageError {
        try (var in = new java.io.BufferedInputStream(file.equals("-") ? System.in : Files.newInputStream(Path.of(file)), 1 << 16)) {
            if (plain) {
                ExportReader.read(in, sink);
            } else {
                FastExportReader.read(in, sink);
            }
        } catch (IOException e) {
            throw new UsageError("cannot read " + file + ": " + reason(e));
        } catch (ExportReader.Unreadable e) {
            throw new UsageError(file + " is not a readable export: " + e.getMessage());
        }
    }

    /** Writes {@code text} to {@code file}. */
    static void write(String file, String text) throws UsageError {
        try {
            Files.writeString(Path.of(file), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageError("cannot write " + file + ": " + reason(e));
        }
    }

    static String reason(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
