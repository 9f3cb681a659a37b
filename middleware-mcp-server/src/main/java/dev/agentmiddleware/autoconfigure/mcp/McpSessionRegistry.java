package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;

/**
 * The live sessions of the transport: started under a cap, bound to the principal that
 * started them, ended by the client, by idling longer than the idle timeout or by the
 * server stopping. The transport's only view of where sessions are kept;
 * {@link InMemoryMcpSessionRegistry} keeps them in this server. <pre>{@code
 * McpLiveSession live = registry.find(sessionId, "alice");
 * if (live == null) {
 *     // unknown, expired or another principal's session: 404
 * }
 * }</pre>
 */
interface McpSessionRegistry {

	/**
	 * The longest {@code protocolVersion} of an {@code initialize} request that starts a
	 * session, in every registry: column {@code protocol_version} of
	 * {@code agent_mcp_session} is {@code VARCHAR(32)}. The versions of the MCP
	 * specification are dates such as {@code 2025-06-18}. {@link McpRequestValidator}
	 * refuses a longer one (400 with {@code -32602}) before any registry sees it.
	 */
	int MAX_PROTOCOL_VERSION_LENGTH = 32;

	/**
	 * Starts a session for an {@code initialize} request, unless the registry holds its
	 * limit of live sessions after ending the idle ones.
	 * @param factory the MCP SDK's session factory
	 * @param request the params of the {@code initialize} request
	 * @param owner the name of the authenticated principal starting it, {@code null} for
	 * an anonymous client
	 * @return the started session and its answer, or {@code null} when the limit is
	 * reached
	 */
	McpStreamableServerSession.@Nullable McpStreamableServerSessionInit start(
			McpStreamableServerSession.Factory factory, McpSchema.InitializeRequest request, @Nullable String owner);

	/**
	 * The live session a request names, marked as used now; one idle too long ends here.
	 * @param id the {@code Mcp-Session-Id} the request sent
	 * @param principalName the name of the request's authenticated principal,
	 * {@code null} when anonymous
	 * @return the session, or {@code null} when it is unknown, expired or started by
	 * another principal
	 */
	@Nullable McpLiveSession find(String id, @Nullable String principalName);

	/**
	 * The live session with this id, as it is: not checked for its owner or idle time,
	 * not marked as used.
	 * @param id the session id
	 * @return the session, or {@code null}
	 */
	@Nullable McpLiveSession get(String id);

	/**
	 * Every live session.
	 * @return a snapshot of the sessions
	 */
	List<McpLiveSession> sessions();

	/**
	 * Ends a session: the SDK's session is deleted and its streams are completed.
	 * @param id the session id; nothing happens when no such session lives
	 */
	void end(String id);

	/**
	 * Ends every session.
	 */
	void endAll();

	/**
	 * The most live sessions the registry holds.
	 * @return the limit
	 */
	int maxSessions();

	/**
	 * The number of live sessions.
	 * @return the number of sessions not yet ended or expired
	 */
	int size();

}
