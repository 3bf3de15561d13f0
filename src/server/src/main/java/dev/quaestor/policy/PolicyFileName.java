package dev.quaestor.policy;

import java.util.Locale;

/**
 * Which names are policy files: one rule for the directory a server loads and for the files a what-if proposes, so a
 * file judged in review is a file the server reads. A policy file is named {@code *.yaml} or {@code *.yml}, in lower
 * case, without a leading dot or a path separator.
 *
 * <p>In a directory, a name that is not a policy file's is either ignored or refused. Ignored: names starting with
 * {@code ..} (what the kubelet keeps in a ConfigMap volume: the {@code ..data} link, {@code ..data_tmp} and the
 * timestamped {@code ..2026_…} folders), and names that do not mention {@code .yaml} or {@code .yml} in any case
 * (a README, {@code .gitkeep}). Refused, so the whole set is: every other name mentioning {@code .yaml} or {@code .yml}
 * ({@code raw.YAML}, {@code raw.Yml}, {@code .raw.yaml}, {@code raw.yaml.bak}, {@code raw.yaml~}), which someone wrote
 * as a policy file and the server would otherwise skip in silence, rules and all.
 */
final class PolicyFileName {

    /** What a directory loader does with a name. */
    enum Kind {
        /** Read as part of the set. */
        POLICY,
        /** Not a policy file, and not mistakable for one. */
        IGNORED,
        /** Looks meant as a policy file, but is not named as one: the set is refused. */
        REFUSED
    }

    /** The rule, in words, for error messages and the documentation. */
    static final String RULE = "policy files are named *.yaml or *.yml, in lower case, not starting with a dot";

    private PolicyFileName() {
    }

    static Kind of(String name) {
        if (isPolicy(name)) {
            return Kind.POLICY;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (name.startsWith("..") || !(lower.contains(".yaml") || lower.contains(".yml"))) {
            return Kind.IGNORED;
        }
        return Kind.REFUSED;
    }

    private static boolean isPolicy(String name) {
        return !name.startsWith(".") && name.indexOf('/') < 0 && name.indexOf('\\') < 0
                && (name.endsWith(".yaml") || name.endsWith(".yml"));
    }
}
