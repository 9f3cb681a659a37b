-- Thread metadata, one row per thread. thread_id holds the SHA-256 in hex of the thread id
-- (McpSessionIds.DIGEST_LENGTH = 64 characters), never the id: on the MCP path it is the session id, a bearer secret.
CREATE TABLE IF NOT EXISTS agent_thread_metadata (
	thread_id VARCHAR(64) NOT NULL PRIMARY KEY,
	metadata TEXT NOT NULL,
	version BIGINT NOT NULL,
	updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);
