-- The lifetime of 2025 MCP sessions: when a session was last used (idle expiry) and when the latest token it was
-- used with expires. The sweep finds expired sessions by these columns and deletes their rows.
ALTER TABLE mcp_session ADD COLUMN last_used_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE mcp_session ADD COLUMN expires_at TIMESTAMP WITH TIME ZONE;
UPDATE mcp_session SET last_used_at = created_at WHERE last_used_at IS NULL;
CREATE INDEX mcp_session_last_used ON mcp_session (last_used_at);
CREATE INDEX mcp_session_expires ON mcp_session (expires_at);
CREATE INDEX mcp_session_ended ON mcp_session (ended_at);
