package dev.quaestor.evidence.check;

/**
 * A reason the evidence does not verify, said in plain words, with where it was found: the log, the
 * record's seq (0 if it is not about one record) and the line (0 if unknown).
 */
public record Problem(String log, long seq, long line, String message) {

    @Override
    public String toString() {
        return message;
    }
}
