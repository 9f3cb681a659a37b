-- Table of the approval store (postgresql): pending requests and their decisions; the session grants, recent denials and
-- the audit trail are in schema-records.sql, the same for every database. Times are epoch milliseconds.
-- Principal names (principal, decided_by) have no length limit: a token's subject may be longer than any fixed width,
-- and they are shown and compared as they are. Tables created by an earlier version kept them in VARCHAR(255).
CREATE TABLE IF NOT EXISTS agent_approval_request (
	id VARCHAR(64) NOT NULL PRIMARY KEY,
	tool_name VARCHAR(64) NOT NULL,
	safety VARCHAR(16) NOT NULL,
	arguments TEXT NOT NULL,
	arguments_hash VARCHAR(64) NOT NULL,
	session_id VARCHAR(255),
	principal TEXT,
	summary VARCHAR(1024) NOT NULL,
	created_at BIGINT NOT NULL,
	expires_at BIGINT NOT NULL,
	status VARCHAR(32) NOT NULL,
	decided_by TEXT,
	reason VARCHAR(1000),
	changed_arguments TEXT,
	grant_scope VARCHAR(16),
	decided_at BIGINT,
	owner_id VARCHAR(255) NOT NULL,
	heartbeat_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_approval_request_status ON agent_approval_request (status, created_at);
