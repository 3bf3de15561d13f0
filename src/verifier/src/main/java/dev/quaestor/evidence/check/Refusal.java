package dev.quaestor.evidence.check;

/**
 * Why a piece of evidence does not count, in words, with its evidence, the value expected and the value found: a
 * checkpoint note that no trusted key opens ({@link SignedCheckpoint}), a time-stamp token that does not vouch for its
 * checkpoint ({@link TimeStampCheck}).
 */
public final class Refusal extends Exception {

    private final String expected;
    private final String found;

    Refusal(String message, String expected, String found) {
        super(message, null, false, false);
        this.expected = expected;
        this.found = found;
    }

    public String expected() {
        return expected;
    }

    public String found() {
        return found;
    }
}
