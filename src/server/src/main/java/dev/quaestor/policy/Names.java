package dev.quaestor.policy;

import java.util.HashSet;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;

/** The names a caller is matched by (roles, groups, subjects, clients, tenants, scopes), as a policy file spells them. */
final class Names {

    private Names() {
    }

    /**
     * A list of names a caller is matched by (roles, groups, subjects, clients, tenants, scopes); none if not given.
     * Each bad entry is reported.
     */
    static Set<String> list(YamlReader y, Node node, String what) {
        if (node == null) {
            return Set.of();
        }
        var out = new HashSet<String>();
        var parts = new Parts();
        for (Node n : y.sequence(node, what)) {
            String name = parts.read(() -> Names.one(y, n, "an entry of " + what));
            if (name != null) {
                out.add(name);
            }
        }
        parts.done();
        return out;
    }

    /**
     * One name a caller is matched by. A blank one would match a token carrying a blank claim, and one with spaces at
     * its ends names nobody the issuer writes: both are mistakes, refused rather than matched.
     */
    static String one(YamlReader y, Node node, String what) {
        String s = y.string(node, what);
        if (s.isBlank()) {
            throw y.fail(node, what + " must not be empty" + (s.isEmpty() ? "" : " (it holds only white space)"));
        }
        if (!s.strip().equals(s)) {
            throw y.fail(node, what + ": '" + s + "' has spaces at its start or end");
        }
        return s;
    }
}
