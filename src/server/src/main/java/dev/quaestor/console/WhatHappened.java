package dev.quaestor.console;

/**
 * A request in one sentence for compliance staff: what the policy decided and what actually happened after, so that
 * a request the policy allowed but the rate limit refused does not read as allowed.
 */
final class WhatHappened {

    private WhatHappened() {
    }

    /**
     * The sentence for a request's {@code DECISION} (may be null: then null) and its {@code OUTCOME}s in log order: the
     * last says how it ended; a first {@code ok} that a later one overrides (an answer that did not reach the client,
     * a request refused after its record) is told as what was recorded, then what happened.
     */
    static String of(RecordRow decision, java.util.List<RecordRow> outcomes) {
        if (decision == null) {
            return null;
        }
        String what = (decision.action().isEmpty() ? "request" : decision.action()) + (decision.uri().isEmpty() ? "" : " of " + decision.uri());
        if (FieldLabel.beforePolicy(decision)) {
            String code = decision.get("error").isEmpty() ? "" : " (error " + decision.get("error") + ")";
            return "This " + what + " was refused before the policy was asked: " + meaning(decision.outcome()) + code + ".";
        }
        String by = decision.rules().isEmpty() ? "" : " (rule " + decision.rules().replace(",", ", ") + ")";
        String decided = switch (decision.decision()) {
            case "DENY" -> "The policy refused this " + what + (by.isEmpty() ? " (no rule allowed it: default deny)" : by);
            case "FILTER" -> "The policy allowed this " + what + by + ", leaving out what the caller may not see";
            case "ALLOW" -> "The policy allowed this " + what + by;
            default -> "Decision " + decision.decision() + " on this " + what;
        };
        String stopped = decision.outcome();
        if (!stopped.isEmpty() && !stopped.equals("ok")) {
            String code = decision.get("error").isEmpty() ? "" : " (error " + decision.get("error") + ")";
            boolean allowed = !decision.decision().equals("DENY");
            if (!allowed && stopped.equals("refused")) {
                return decided + ": nothing was served" + code + ".";
            }
            return decided + (allowed ? ", but it was " : "; it was ") + meaning(stopped) + code + ".";
        }
        if (outcomes.isEmpty()) {
            return decided + "; no outcome is on record.";
        }
        RecordRow first = outcomes.get(0);
        RecordRow last = outcomes.get(outcomes.size() - 1);
        String then = ", but then: " + meaning(last.outcome())
                + (last.get("error").isEmpty() ? "" : " (error " + last.get("error") + ")") + ".";
        if (!first.outcome().equals("ok")) {
            return decided + then;
        }
        String done = first.hasServedBytes() ? first.bytes() + " bytes were served (their SHA-256 is below)"
                : "it was done" + (first.get("items").isEmpty() ? "" : ": " + first.get("items") + " item(s) listed"
                        + (first.hasListedDigest() ? " (the SHA-256 of what was listed is below)" : ""));
        if (last == first) {
            return decided + ", and " + done + ".";
        }
        return decided + ", and its first outcome said: " + done + then;
    }

    private static String meaning(String outcome) {
        String m = FieldLabel.OUTCOMES.get(outcome);
        return m == null ? outcome : outcome + ": " + m;
    }
}
