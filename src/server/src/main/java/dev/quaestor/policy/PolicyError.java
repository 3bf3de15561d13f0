package dev.quaestor.policy;

/** One problem in a policy set, located by file and line (line 0 when the problem has no line). */
public record PolicyError(String file, int line, String message) {

    @Override
    public String toString() {
        return line > 0 ? file + ":" + line + ": " + message : file + ": " + message;
    }
}
