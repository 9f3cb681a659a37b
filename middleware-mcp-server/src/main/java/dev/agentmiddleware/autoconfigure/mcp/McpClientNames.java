package dev.agentmiddleware.autoconfigure.mcp;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * The name an MCP client gave itself in {@code initialize}, as an approval records who
 * decided: the client chooses it, and it reaches logs and the audit trail, so it is kept
 * on one line (control characters become {@code ?}) and short (at most
 * {@value #MAX_LENGTH} characters, then {@code …}). <pre>{@code
 * McpClientNames.of(exchange);   // "inspector", or "(unnamed)"
 * }</pre>
 */
final class McpClientNames {

	/** The longest client name kept, before the {@code …} that marks a cut. */
	static final int MAX_LENGTH = 64;

	private McpClientNames() {
	}

	/**
	 * The client's name, fit for a log line.
	 * @param exchange the exchange of the client's request
	 * @return its name on one line and at most {@value #MAX_LENGTH} characters (and a
	 * {@code …}), or {@code (unnamed)}
	 */
	static String of(McpSyncServerExchange exchange) {
		McpSchema.Implementation info = exchange.getClientInfo();
		@Nullable String name = (info != null) ? info.name() : null;
		if (name == null || name.isBlank()) {
			return "(unnamed)";
		}
		String line = name.replaceAll("\\p{Cntrl}", "?");
		return (line.length() > MAX_LENGTH) ? line.substring(0, MAX_LENGTH) + "…" : line;
	}

}
