package dev.agentmiddleware.autoconfigure.springai;

import java.util.Map;
import java.util.function.Consumer;

import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * Recognizes the caller of a Spring AI tool call that a protocol recorded in the call's
 * {@code ToolContext}: the MCP server module recognizes the MCP exchange that Spring AI's
 * MCP server puts there, so that a call from an MCP client is described with its session,
 * principal and exchange. Implementations are listed in {@code META-INF/spring.factories}
 * under this interface's name, so that this module knows no protocol: <pre>{@code
 * dev.agentmiddleware.autoconfigure.springai.ToolContextCallers=\
 * com.example.MyProtocolCallers
 * }</pre>
 */
@FunctionalInterface
public interface ToolContextCallers {

	/**
	 * The caller recorded in a tool context, when it is this protocol's.
	 * @param context the entries of the call's {@code ToolContext}
	 * @param principal the principal the context names explicitly, or {@code null}
	 * @return the caller, or {@code null} when the context holds nothing of this protocol
	 */
	@Nullable Caller of(Map<String, Object> context, @Nullable ToolPrincipal principal);

	/**
	 * A caller recognized in a tool context.
	 *
	 * @param source where the call came from
	 * @param sessionId the session id the client knows, or {@code null}
	 * @param principal the caller's principal, or {@code null} for an anonymous caller
	 * @param attributes adds the protocol's invocation attributes (such as the MCP
	 * exchange) to the call
	 */
	record Caller(InvocationSource source, @Nullable String sessionId, @Nullable ToolPrincipal principal,
			Consumer<ToolInvocation.Builder> attributes) {
	}

}
