package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;

import dev.agentmiddleware.tool.ToolClientUnavailableException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * A tool call of MCP {@code 2026-07-28} that failed for want of a client capability the
 * request did not declare in its {@code _meta}: the tool asked its {@code ToolClient} for
 * sampling or elicitation and did not catch the {@link ToolClientUnavailableException}.
 * The revision answers such a request with the error {@code -32021} (missing required
 * client capability), whose {@code data.requiredCapabilities} is a
 * {@code ClientCapabilities} object such as {@code {"sampling": {}}}, rather than with a
 * result. A call of a {@code 2025-11-25} session fails as any call of a failed tool does.
 */
final class McpMissingClientCapability {

	private McpMissingClientCapability() {
	}

	/**
	 * The error to answer a call with, if its tool failed for want of a capability on a
	 * request of {@code 2026-07-28}.
	 * @param context what the transport knows of the call's request
	 * @param failure why the call failed
	 * @return the {@code -32021} error, or {@code null} when the call failed otherwise or
	 * came from a session
	 */
	static @Nullable McpError of(McpRequestContext context, Throwable failure) {
		if (!context.stateless()) {
			return null;
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ToolClientUnavailableException unavailable) {
				return new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(
						StatelessMcpSession.MISSING_REQUIRED_CLIENT_CAPABILITY,
						"Missing required client capability: " + unavailable.getMessage(),
						Map.of("requiredCapabilities", Map.of(unavailable.request(), Map.of()))));
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return null;
	}

}
