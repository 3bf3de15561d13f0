package dev.quaestor.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;

/** A fresh Ed25519 audit signing key in a PEM file, as a Kubernetes Secret would mount it for a server process. */
public final class SigningKeyFile {

    private SigningKeyFile() {
    }

    public static Path write(Path file) throws Exception {
        var key = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate();
        Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        return file;
    }
}
