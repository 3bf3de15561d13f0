package dev.quaestor.console;

/**
 * A request in one sentence for compliance staff: what the policy decided and what actually happened after, so that
 * a request the policy allowed but the rate limit refused does not read as allowed.
 */
final class WhatHappened {

    private WhatHappened() {
    }

    /** The sentence for a request's {@code DECISION} and {@code OUTCOME} (either may be null); null when there is no decision. */
    static String of(RecordRow decision, RecordRow outcome) {
        if (decision == null) {
            return null;
        }
        String what = (decision.action().isEmpty() ? "request" : decision.action()) + (decision.uri().isEmpty() ? "" : " of " + decision.uri());
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
        if (outcome == null) {
            return decided + "; no outcome is on record.";
        }
        String result = outcome.outcome();
        if (result.equals("ok")) {
            if (outcome.hasSha256()) {
                return decided + ", and " + outcome.bytes() + " bytes were served (their SHA-256 is below).";
            }
            return decided + ", and it was done" + (outcome.get("items").isEmpty() ? "" : ": " + outcome.get("items") + " item(s) listed") + ".";
        }
        String code = outcome.get("error").isEmpty() ? "" : " (error " + outcome.get("error") + ")";
        return decided + ", but then: " + meaning(result) + code + ".";
    }

    private static String meaning(String outcome) {
        String m = FieldLabel.OUTCOMES.get(outcome);
        return m == null ? outcome : outcome + ": " + m;
    }
}
