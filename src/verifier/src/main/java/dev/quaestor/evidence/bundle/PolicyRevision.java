package dev.quaestor.evidence.bundle;

import dev.quaestor.evidence.Hex;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;

/**
 * A policy revision (docs/policies.md): SHA-256 over the set's files sorted by name, each as its name, a zero byte,
 * its text (UTF-8) and a zero byte, in hex. Any edit, comments included, is a new revision; so a policy set in a
 * bundle can be checked against the revision the records name. The zero bytes separate the files only because no
 * name or text holds one: the server refuses a policy file that does, and so does the bundle check.
 */
public final class PolicyRevision {

    private PolicyRevision() {
    }

    /** The revision of the files, name to text. */
    public static String of(Iterable<Map.Entry<String, String>> files) {
        var sorted = new java.util.ArrayList<Map.Entry<String, String>>();
        files.forEach(sorted::add);
        sorted.sort(Map.Entry.comparingByKey());
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (var f : sorted) {
            md.update(f.getKey().getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(f.getValue().getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
        }
        return Hex.of(md.digest());
    }
}
