-- Console sessions, kept on the server so that signing out ends a session on every replica at once, and the idle
-- timeout is the server's, bound to the session and its person. The browser holds a random token; only its SHA-256
-- is stored here, so a reader of this table cannot take over a session. A row lives until expires_at (the most a
-- session may last): an ended one stays until then, so that a copy of its cookies is recognised and refused.
CREATE TABLE console_session (
    id_hash       VARCHAR(64)  PRIMARY KEY,
    subject       VARCHAR(512) NOT NULL,
    started_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    last_seen_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    ended_at      TIMESTAMP WITH TIME ZONE,
    end_reason    VARCHAR(32)
);
CREATE INDEX console_session_expires ON console_session (expires_at);
