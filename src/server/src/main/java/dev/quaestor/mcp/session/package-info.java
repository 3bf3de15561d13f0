/**
 * MCP 2025: sessions opened by {@code initialize}, their store, sweep and audit records, and their GET event streams.
 */
package dev.quaestor.mcp.session;
