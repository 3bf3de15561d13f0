package dev.quaestor.evidence.check;

/** Why a piece of evidence does not count, in words, with its evidence: the value expected and the value found. */
public abstract class Refusal extends Exception {

    private final String expected;
    private final String found;

    protected Refusal(String message, String expected, String found) {
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
