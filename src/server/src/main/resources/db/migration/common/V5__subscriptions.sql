-- Resource subscriptions, shared by all replicas: a subscribe may land on one replica while the
-- session's GET stream is held by another, which finds the subscription here when content changes.
-- The identity needed to re-judge each notification under the current policy is kept with it
-- (subject, client, tenant, roles, groups, scopes as JSON, and the source address); never a token.
CREATE TABLE mcp_subscription (
    id          VARCHAR(64)   PRIMARY KEY,
    session_id  VARCHAR(64)   NOT NULL,
    uri         VARCHAR(4096) NOT NULL,
    subject     VARCHAR(2048) NOT NULL,
    identity    VARCHAR(16384) NOT NULL,
    source_ip   VARCHAR(128),
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX mcp_subscription_session ON mcp_subscription (session_id);

-- The session's current GET stream (one per session across replicas): a newer stream replaces an older one.
ALTER TABLE mcp_session ADD COLUMN stream_id VARCHAR(64);
