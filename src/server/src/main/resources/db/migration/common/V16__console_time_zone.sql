-- The time zone each member of staff reads and types the console's times in (absent: the organisation's).
CREATE TABLE console_time_zone (
    subject    VARCHAR(2048) PRIMARY KEY,
    zone       VARCHAR(64)   NOT NULL,
    chosen_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
