package dev.quaestor.mcp;

/** The server version reported in initialize. */
final class ServerVersion {
    static final String VALUE = "0.1.0";

    private ServerVersion() {
    }
}
