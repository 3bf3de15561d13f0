-- A subject's live sessions are counted before each new one opens (the per-subject session cap).
CREATE INDEX mcp_session_subject ON mcp_session (subject, ended_at);
