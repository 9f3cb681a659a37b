CREATE TABLE IF NOT EXISTS agent_rate_limit_bucket (
	id VARCHAR(600) NOT NULL PRIMARY KEY,
	state BYTEA,
	expires_at BIGINT
);
CREATE INDEX IF NOT EXISTS agent_rate_limit_bucket_expires_at ON agent_rate_limit_bucket (expires_at);
