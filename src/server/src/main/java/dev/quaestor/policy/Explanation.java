package dev.quaestor.policy;

import java.util.List;

/**
 * Why a decision came out as it did: the deciding rules, and the allow rules that matched but were
 * overridden by a deny. For administrators; never sent to the caller who was judged.
 */
public record Explanation(Decision decision, List<String> denyRules, List<String> allowRules,
        List<String> overriddenAllows) {
}
