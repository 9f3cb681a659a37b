-- Cache invalidations that travel between instances (entries stay in each instance's memory). Kept for a few
-- minutes; times are epoch milliseconds. Argument values are never stored, only a SHA-256 of their JSON.
CREATE TABLE IF NOT EXISTS agent_cache_invalidation (
	id BIGSERIAL PRIMARY KEY,
	origin VARCHAR(64) NOT NULL,
	tool_name VARCHAR(255),
	arguments_hash VARCHAR(64),
	created_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_cache_invalidation_created_at ON agent_cache_invalidation (created_at);
