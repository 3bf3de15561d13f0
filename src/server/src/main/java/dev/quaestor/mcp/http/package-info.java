/**
 * The door of the MCP endpoint: the Streamable HTTP resource, what every request passes before its protocol era
 * serves it (body reading, admission, Origin/Host guard, required scopes), the routing by era, with the request's
 * protocol revision resolved once, and the writing of answers. Depends on the eras, never the reverse.
 */
package dev.quaestor.mcp.http;
