-- Tasks of the MCP 2026-07-28 tasks extension (io.modelcontextprotocol/tasks), shared by every instance: any instance
-- answers tasks/get, tasks/update and tasks/cancel; the instance that runs a task writes its state here and reads the
-- answers and the cancellation of its client from here. id holds the SHA-256 of the task id in hex (64 characters);
-- task is the task as JSON (status, times, result or error, pending input requests, answers not taken yet);
-- expires_at (epoch milliseconds) is the task's last change plus its TTL; expired rows are deleted.
CREATE TABLE IF NOT EXISTS agent_mcp_task (
	id VARCHAR(64) PRIMARY KEY,
	task CLOB NOT NULL,
	expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_mcp_task_expires_at ON agent_mcp_task (expires_at);
