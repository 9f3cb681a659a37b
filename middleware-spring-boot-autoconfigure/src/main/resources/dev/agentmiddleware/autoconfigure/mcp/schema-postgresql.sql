-- MCP sessions shared by every instance: any instance recreates a session from the initialize params its client
-- sent. Times are epoch milliseconds; a row idle longer than the session idle timeout is deleted.
CREATE TABLE IF NOT EXISTS agent_mcp_session (
	id VARCHAR(64) PRIMARY KEY,
	owner_name VARCHAR(255),
	protocol_version VARCHAR(32),
	initialize_request TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	last_used BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_mcp_session_last_used ON agent_mcp_session (last_used);
