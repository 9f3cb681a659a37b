package dev.agentmiddleware.autoconfigure.authorization;

import java.util.Objects;
import java.util.function.Supplier;

import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * Which tools a caller is offered: the tools it may call, decided by the {@link AuthorizationMiddleware} that refuses
 * its calls ({@link AuthorizationMiddleware#permits}), so that what a caller is shown and what it may call never
 * differ. An MCP client's {@code tools/list} and the tool definitions a {@code ChatClient} hands its model both ask
 * here. A tool that requires authorities is offered only to a caller that holds every one of them, and never to an
 * unauthenticated caller (fail closed); with authorization switched off (no middleware), every tool is offered.
 * Offering is not the guard: a call of a tool the caller was not offered is still refused by the tool's chain.
 * <pre>{@code
 * AuthorizedTools authorized = new AuthorizedTools(registry::getObject, authorization::getIfAvailable);
 * authorized.permits("delete_file", ToolPrincipal.of("bob", Set.of("SCOPE_files.read")));   // false
 * }</pre>
 */
public final class AuthorizedTools {

	private final Supplier<AgentToolRegistry> registry;

	private final Supplier<@Nullable AuthorizationMiddleware> authorization;

	/**
	 * Creates the decision; both are resolved on each question, so that they may be beans created later.
	 * @param registry the registered tools
	 * @param authorization the middleware that refuses the calls, giving {@code null} when authorization is off
	 */
	public AuthorizedTools(Supplier<AgentToolRegistry> registry,
			Supplier<@Nullable AuthorizationMiddleware> authorization) {
		this.registry = Objects.requireNonNull(registry, "registry");
		this.authorization = Objects.requireNonNull(authorization, "authorization");
	}

	/**
	 * Whether a caller is offered a registered tool. A tool the registry does not know (published without our chain)
	 * is not ours to hide.
	 * @param toolName the name of the tool
	 * @param caller the authenticated caller, or {@code null} for an unauthenticated one
	 * @return {@code true} when the registry does not know the tool, or the caller may call it
	 */
	public boolean permits(String toolName, @Nullable ToolPrincipal caller) {
		return this.registry.get().find(toolName).map((tool) -> permits(tool.descriptor(), caller)).orElse(true);
	}

	/**
	 * Whether a caller is offered a tool, by its descriptor: the one it is, or is about to be, registered with.
	 * @param tool the tool
	 * @param caller the authenticated caller, or {@code null} for an unauthenticated one
	 * @return {@code true} when the tool requires nothing, or the caller holds every authority it requires
	 */
	public boolean permits(ToolDescriptor tool, @Nullable ToolPrincipal caller) {
		AuthorizationMiddleware middleware = this.authorization.get();
		return middleware == null || middleware.permits(tool, caller);
	}

}
