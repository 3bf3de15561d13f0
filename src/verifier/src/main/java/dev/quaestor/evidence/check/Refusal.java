package dev.quaestor.evidence.check;

/** Why a checkpoint note or time-stamp token does not count, in words, with the value expected and the value found. */
public final class Refusal extends Exception {

    public final String expected;
    public final String found;

    Refusal(String message, String expected, String found) {
        super(message, null, false, false);
        this.expected = expected;
        this.found = found;
    }
}
