package dev.quaestor.evidence.check;

import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.v1.V1Checkpoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The keys pinned by the person verifying, never those an export names: C2SP verifier keys, and for version-1 logs raw
 * Ed25519 keys (base64 X.509). A verifier key also verifies version-1 checkpoints of the same key material.
 */
public final class TrustedKeys {

    private final List<VerifierKey> noteKeys;
    private final List<byte[]> rawKeys;

    private TrustedKeys(List<VerifierKey> noteKeys, List<byte[]> rawKeys) {
        this.noteKeys = List.copyOf(noteKeys);
        this.rawKeys = List.copyOf(rawKeys);
    }

    public static TrustedKeys of(VerifierKey... keys) {
        return of(Arrays.asList(keys), List.of());
    }

    public static TrustedKeys of(Collection<VerifierKey> noteKeys, Collection<byte[]> v1RawKeys) {
        var raw = new ArrayList<byte[]>();
        noteKeys.forEach(k -> raw.add(k.publicKey()));
        v1RawKeys.forEach(k -> raw.add(k.clone()));
        return new TrustedKeys(new ArrayList<>(noteKeys), raw);
    }

    /** Reads keys as given on a command line or in a key file: verifier keys or version-1 keys. */
    public static TrustedKeys parse(Collection<String> keys) {
        var notes = new ArrayList<VerifierKey>();
        var raw = new ArrayList<byte[]>();
        for (String k : keys) {
            String s = k.strip();
            byte[] v1 = V1Checkpoint.rawKey(s);
            if (v1 != null) {
                raw.add(v1);
                continue;
            }
            try {
                notes.add(VerifierKey.parse(s));
            } catch (IllegalArgumentException e) {
                boolean shaped = s.split("\\+", 3).length == 3;
                throw new IllegalArgumentException(shaped ? e.getMessage() : "not a key: expected a verifier key such as "
                        + "quaestor.audit+1a2b3c4d+AQ… (or a version-1 public key in base64), got: "
                        + (s.length() > 60 ? s.substring(0, 60) + "…" : s));
            }
        }
        return of(notes, raw);
    }

    /** The keys that open checkpoint notes. */
    public List<VerifierKey> noteKeys() {
        return noteKeys;
    }

    public boolean isEmpty() {
        return rawKeys.isEmpty();
    }

    /** Whether this exact key (name, id and key) is trusted for checkpoint notes. */
    public boolean trusts(VerifierKey key) {
        return noteKeys.contains(key);
    }

    /** Whether this key material is trusted. */
    public boolean trustsRaw(byte[] rawPublicKey) {
        return rawKeys.stream().anyMatch(k -> Arrays.equals(k, rawPublicKey));
    }

    /** The trusted key whose version-1 key id is {@code keyId}, or null. */
    public byte[] v1Key(String keyId) {
        return rawKeys.stream().filter(k -> V1Checkpoint.keyId(k).equals(keyId)).findFirst().map(byte[]::clone).orElse(null);
    }
}
