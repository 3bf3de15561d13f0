/**
 * The MCP Streamable HTTP transport: the endpoint, what every request passes before its protocol generation serves
 * it (body reading, admission, Origin/Host guard, required scopes), a POST read and parsed once and routed by
 * generation with its protocol revision resolved once, and the writing of answers. Depends on the generations, never
 * the reverse.
 */
package dev.quaestor.mcp.transport;
