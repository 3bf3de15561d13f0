package dev.quaestor.mcp.wire;

import java.util.Map;

/**
 * What the server says of itself, the same in both generations: its identity and version, its capabilities and its
 * instructions ({@code initialize} in 2025, {@code server/discover} and every result's {@code _meta} in 2026-07-28).
 */
public final class ServerInfo {

    static final String VERSION = "0.1.0";
    public static final Schema.Implementation IMPLEMENTATION =
            new Schema.Implementation("quaestor", "Quaestor", VERSION);
    /** Resources (with subscriptions and list changes); no tools, no prompts. */
    public static final Schema.ServerCapabilities CAPABILITIES =
            new Schema.ServerCapabilities(new Schema.ResourcesCapability(true, true), null, Map.of());
    public static final String INSTRUCTIONS =
            "Governed read access to organisational content. Every read is authorised by policy and audited.";

    private ServerInfo() {
    }
}
