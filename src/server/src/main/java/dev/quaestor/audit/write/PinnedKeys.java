package dev.quaestor.audit.write;

import dev.quaestor.audit.config.AuditConfig;

import dev.quaestor.evidence.VerifierKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys the online check trusts: the current signing key and those configured (retired keys, from
 * configuration or a mounted file). A key the database names is never trusted for being there: the
 * application may write that table, so anyone who can write it could add a key of their own.
 */
public final class PinnedKeys {

    private final Set<VerifierKey> keys;

    private PinnedKeys(Set<VerifierKey> keys) {
        this.keys = Set.copyOf(keys);
    }

    public static PinnedKeys load(AuditConfig config, VerifierKey current) {
        var out = new LinkedHashSet<VerifierKey>();
        out.add(current);
        for (String k : config.trustedKeys().orElse(List.of())) {
            out.add(parse(k, "quaestor.audit.trusted-keys"));
        }
        if (config.trustedKeysFile().isPresent()) {
            Path file = Path.of(config.trustedKeysFile().get());
            try {
                int n = 0;
                for (String line : Files.readAllLines(file)) {
                    n++;
                    String s = line.strip();
                    if (!s.isEmpty() && !s.startsWith("#")) {
                        out.add(parse(s, file + ":" + n));
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("quaestor.audit.trusted-keys-file: cannot read " + file + ": " + e.getMessage(), e);
            }
        }
        return new PinnedKeys(out);
    }

    private static VerifierKey parse(String text, String where) {
        try {
            return VerifierKey.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + ": " + e.getMessage(), e);
        }
    }

    public Set<VerifierKey> all() {
        return keys;
    }

    public List<String> describe() {
        var out = new ArrayList<String>();
        keys.forEach(k -> out.add(k.toString()));
        return out;
    }
}
