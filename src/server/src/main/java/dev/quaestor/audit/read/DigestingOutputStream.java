package dev.quaestor.audit.read;

import dev.quaestor.evidence.Hex;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Passes bytes through while counting them and hashing them with SHA-256: the exported file's digest. */
public final class DigestingOutputStream extends FilterOutputStream {

    private final MessageDigest sha256;
    private long bytes;

    public DigestingOutputStream(OutputStream out) {
        super(out);
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        sha256.update((byte) b);
        bytes++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        sha256.update(b, off, len);
        bytes += len;
    }

    public long bytes() {
        return bytes;
    }

    /** The hex SHA-256 of everything written; call once, at the end. */
    public String sha256Hex() {
        return Hex.of(sha256.digest());
    }
}
