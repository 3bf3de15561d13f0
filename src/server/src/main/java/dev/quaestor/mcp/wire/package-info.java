/**
 * The protocol's vocabulary, shared by both generations: JSON-RPC messages and answers, the revisions spoken
 * ({@link dev.quaestor.mcp.wire.ProtocolRevision}), error codes and error answers per revision, shared headers and
 * schema types.
 */
package dev.quaestor.mcp.wire;
