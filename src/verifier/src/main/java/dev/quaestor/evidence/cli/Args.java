package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.ExportReader;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.fast.FastExportReader;
import dev.quaestor.evidence.check.TrustedKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A command's arguments: its positional values, {@code --trust} keys (repeatable), {@code --out} and flags. */
final class Args {

    final List<String> positional = new ArrayList<>();
    final List<String> trust = new ArrayList<>();
    final List<String> flags = new ArrayList<>();
    String out;

    /** Reads {@code args}; {@code allowed} are the options this command takes. */
    static Args parse(List<String> args, Set<String> allowed) throws UsageError {
        var a = new Args();
        for (int i = 0; i < args.size(); i++) {
            String s = args.get(i);
            if (s.startsWith("--")) {
                if (!allowed.contains(s)) {
                    throw new UsageError("unknown option " + s);
                }
                if (s.equals("--trust") || s.equals("--out")) {
                    if (i + 1 >= args.size()) {
                        throw new UsageError(s + " needs a value");
                    }
                    String v = args.get(++i);
                    if (s.equals("--trust")) {
                        a.trust.add(v);
                    } else {
                        a.out = v;
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
            if (Files.isRegularFile(p)) {
                for (String line : read(p).split("\n")) {
                    if (!line.isBlank() && !line.strip().startsWith("#")) {
                        keys.add(line.strip());
                    }
                }
            } else {
                keys.add(t);
            }
        }
        try {
            return TrustedKeys.parse(keys);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--trust: " + e.getMessage());
        }
    }

    static String read(Path p) throws UsageError {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new UsageError("cannot read " + p + ": it is not UTF-8 text");
        } catch (IOException e) {
            throw new UsageError("cannot read " + p + ": " + reason(e));
        }
    }

    /** Reads an export file (or standard input, for -) into {@code sink}, with the fast reader. */
    static void readExport(String file, ExportSink sink) throws UsageError {
        readExport(file, sink, false);
    }

    /** As {@link #readExport(String, ExportSink)}; {@code plain}: with the plain reader, line by line. */
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
