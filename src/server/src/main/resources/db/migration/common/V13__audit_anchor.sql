-- Anchors (docs/audit-format.md, section 3.1): an RFC 3161 time-stamp token over a checkpoint's text, from the
-- configured time-stamping authority, stored once the server has checked it as the verifier would. A checkpoint's
-- row never changes, so its token is kept beside it; exports, proofs and /audit/checkpoint serve the checkpoint's
-- note with the token's line added.
CREATE TABLE audit_anchor (
    chain_id   VARCHAR(128)   NOT NULL,
    seq        BIGINT         NOT NULL,
    signature  VARCHAR(65536) NOT NULL,
    stamped_at TIMESTAMP WITH TIME ZONE NOT NULL,
    tsa        VARCHAR(1024)  NOT NULL,
    PRIMARY KEY (chain_id, seq)
);
-- seq: the checkpoint's tree size; signature: the note line's field, base64(key id || DER token);
-- stamped_at: the token's time; tsa: the subject of the TSA's certificate (both for lookups and display).
