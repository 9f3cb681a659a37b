-- MCP sessions shared by every instance: any instance recreates a session from the initialize params its client
-- sent. Times are epoch milliseconds; last_used is written at most every min(idle timeout / 20, 30 s), and a row
-- whose last_used is older than the idle timeout plus that interval is expired (and deleted).
-- Neither the session id (a bearer secret) nor the owner's name is kept as it is: id and owner_name hold their
-- SHA-256 in hex (McpSessionIds.DIGEST_LENGTH = 64 characters), which a lookup computes from the id the client sends.
-- protocol_version holds at most McpSessionRegistry.MAX_PROTOCOL_VERSION_LENGTH = 32 characters; an initialize
-- with a longer one is refused (400) before a session starts.
CREATE TABLE IF NOT EXISTS agent_mcp_session (
	id VARCHAR(64) PRIMARY KEY,
	owner_name VARCHAR(64),
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
-- The requestStates of MCP 2026-07-28 input_required answers already used (JdbcMcpRequestStateLedger): a state is
-- good for one retry on any instance. id is the state's random id (a UUID, not a secret); a row is needed until the
-- state expires (epoch milliseconds), and expired rows are deleted as new ones come.
CREATE TABLE IF NOT EXISTS agent_mcp_request_state (
	id VARCHAR(36) PRIMARY KEY,
	expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_mcp_request_state_expires_at ON agent_mcp_request_state (expires_at);
