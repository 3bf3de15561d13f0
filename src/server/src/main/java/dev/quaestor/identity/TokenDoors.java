package dev.quaestor.identity;

/**
 * The paths that take a bearer token and put its refusal on record: {@code /mcp}, and the auditor and administrator
 * APIs ({@code /audit}, {@code /admin}; PCI DSS 10.2.1.4). The console signs people in with its own tenant and cookie;
 * health, metadata and {@code /q/metrics} are not doors to content or to the trail.
 */
final class TokenDoors {

    private TokenDoors() {
    }

    /** Whether {@code path} is a door whose refused tokens are recorded. */
    static boolean recorded(String path) {
        return mcp(path) || under(path, "/audit") || under(path, "/admin");
    }

    /** Whether {@code path} is the MCP endpoint. */
    static boolean mcp(String path) {
        return under(path, "/mcp");
    }

    private static boolean under(String path, String root) {
        return path.equals(root) || path.startsWith(root) && path.charAt(root.length()) == '/';
    }
}
