-- Every deleted session row (ended by a client, expired and swept, or deleted by an operator) is announced to every
-- instance on channel agent_mcp_session_<md5 of the table's schema>, with the row's id: the SHA-256 of the session
-- id, never the id itself. An instance that hears it drops its copy of the session (JdbcMcpSessionRegistry).
-- Run as one statement (the function's body holds semicolons), under the lock of session starts.
CREATE OR REPLACE FUNCTION agent_mcp_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('agent_mcp_session_' || md5(TG_TABLE_SCHEMA), OLD.id);
	RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER agent_mcp_session_ended AFTER DELETE ON agent_mcp_session
	FOR EACH ROW EXECUTE FUNCTION agent_mcp_session_ended();
