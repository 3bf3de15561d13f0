/**
 * MCP 2026-07-28: stateless requests, each carrying its envelope and standard headers, and their listen streams.
 */
package dev.quaestor.mcp.stateless;
