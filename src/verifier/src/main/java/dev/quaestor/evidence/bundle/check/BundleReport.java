package dev.quaestor.evidence.bundle.check;

import dev.quaestor.evidence.bundle.Manifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What checking a bundle found: its manifest (null if unreadable), each record with what vouches for it, each
 * checkpoint, the consistency proofs and policy revisions checked, warnings, and the problems, each with the file
 * of the bundle and the position in it (a line, a byte) where it was found.
 */
public final class BundleReport {

    /** A reason the bundle does not verify: the file it is in, where in it (may be empty), and what, in words. */
    public record Problem(String file, String where, String message) {
        @Override
        public String toString() {
            return file + (where.isEmpty() ? "" : ", " + where) + ": " + message;
        }
    }

    /**
     * A record of the bundle, and the words on what vouches for it; or, where nothing does, why not ({@code vouched}
     * null): a record changed, or its proof missing, damaged or of another record.
     */
    public record Proven(Map<String, String> fields, String vouched, String notProven) {

        static Proven by(Map<String, String> fields, String vouched) {
            return new Proven(fields, vouched, null);
        }

        static Proven not(Map<String, String> fields, String why) {
            return new Proven(fields, null, why);
        }
    }

    Manifest manifest;
    String sha256;
    final List<Proven> records = new ArrayList<>();
    final List<String> checkpoints = new ArrayList<>();
    final List<String> consistency = new ArrayList<>();
    final List<String> policies = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    final List<Problem> problems = new ArrayList<>();

    void problem(String file, String where, String message) {
        problems.add(new Problem(file, where, message));
    }

    public boolean ok() {
        return problems.isEmpty();
    }

    /** The SHA-256 of the ZIP file, hex: the record of the bundle's making in the log holds the same. */
    public String sha256() {
        return sha256;
    }

    public Manifest manifest() {
        return manifest;
    }

    public List<Proven> records() {
        return List.copyOf(records);
    }

    /** Each checkpoint in words: its log, size, signer and what its time-stamp says. */
    public List<String> checkpoints() {
        return List.copyOf(checkpoints);
    }

    public List<String> consistency() {
        return List.copyOf(consistency);
    }

    public List<String> policies() {
        return List.copyOf(policies);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public List<Problem> problems() {
        return List.copyOf(problems);
    }
}
