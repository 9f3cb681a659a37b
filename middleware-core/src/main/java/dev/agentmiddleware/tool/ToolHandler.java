package dev.agentmiddleware.tool;

import org.jspecify.annotations.Nullable;

/**
 * Handles one call of a tool: the tool's own code at the end of a chain, or a middleware
 * layer around it.
 *
 * <p>
 * Implementations are called concurrently from many threads and must hold no per-call
 * state in fields. A tool's own exception propagates unchanged; the chain never wraps it.
 * <pre>{@code
 * ToolHandler weather = invocation -> forecast((String) invocation.argument("city"));
 * }</pre>
 */
@FunctionalInterface
public interface ToolHandler {

	/**
	 * Handles the call.
	 * @param invocation the call, with its bound arguments
	 * @return the tool's result as a Java value, {@code null} for {@code void} tools
	 * @throws Exception the tool's own failure, or a {@link ToolMiddlewareException} from
	 * a middleware
	 */
	@Nullable Object handle(ToolInvocation invocation) throws Exception;

}
