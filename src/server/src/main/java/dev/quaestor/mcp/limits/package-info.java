/**
 * The bounds callers are held to before any work is done for them (per-subject caps, transport limits), and how a
 * refusal at one is recorded and answered.
 */
package dev.quaestor.mcp.limits;
