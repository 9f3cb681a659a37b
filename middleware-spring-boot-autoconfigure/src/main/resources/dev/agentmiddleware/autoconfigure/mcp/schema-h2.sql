-- MCP sessions shared by every instance: any instance recreates a session from the initialize params its client
-- sent. Times are epoch milliseconds; a row idle longer than the session idle timeout is deleted.
CREATE TABLE IF NOT EXISTS agent_mcp_session (
	id VARCHAR(64) PRIMARY KEY,
	owner_name VARCHAR(255),
	protocol_version VARCHAR(32),
	initialize_request CLOB NOT NULL,
	created_at BIGINT NOT NULL,
	last_used BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_mcp_session_last_used ON agent_mcp_session (last_used);
-- One row whose lock (SELECT ... FOR UPDATE) every session start takes first, so that the count of live sessions and
-- the insert of a new one are one step for every instance: the cap is exact. PostgreSQL uses an advisory lock instead.
CREATE TABLE IF NOT EXISTS agent_mcp_session_lock (
	id INT PRIMARY KEY
);
MERGE INTO agent_mcp_session_lock (id) KEY (id) VALUES (1);
