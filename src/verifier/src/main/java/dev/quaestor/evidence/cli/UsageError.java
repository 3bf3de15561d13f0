package dev.quaestor.evidence.cli;

/** The command line is wrong or an input cannot be read: exit code 2, with a message for a person. */
final class UsageError extends Exception {

    UsageError(String message) {
        super(message, null, false, false);
    }
}
