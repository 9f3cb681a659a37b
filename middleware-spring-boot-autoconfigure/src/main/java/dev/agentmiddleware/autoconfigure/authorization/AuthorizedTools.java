package dev.agentmiddleware.autoconfigure.authorization;

import java.util.Objects;
import java.util.function.Supplier;

import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.authorization.AuthorizationRulesMiddleware;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * Which tools a caller is offered: the tools it may call, decided by the middleware that
 * refuse its calls, so that what a caller is shown and what it may call never differ. An
 * MCP client's {@code tools/list} and the tool definitions a {@code ChatClient} hands its
 * model both ask here, each for its own {@link InvocationSource}. A tool that requires
 * authorities is offered only to a caller that holds every one of them, and never to an
 * unauthenticated caller (fail closed) ({@link AuthorizationMiddleware#permits}); a tool
 * whose authorization rules that read no arguments refuse the caller, or this source, is
 * not offered either ({@link AuthorizationRulesMiddleware#permits}): rules over
 * arguments, and deciders, cannot hide a tool. With authorization switched off (no
 * middleware), every tool is offered. Offering is not the guard: a call of a tool the
 * caller was not offered is still refused by the tool's chain. <pre>{@code
 * AuthorizedTools authorized = new AuthorizedTools(registry::getObject, authorization::getIfAvailable,
 *         rules::getIfAvailable, InvocationSource.MCP);
 * authorized.permits("delete_file", ToolPrincipal.of("bob", Set.of("SCOPE_files.read")));   // false
 * }</pre>
 */
public final class AuthorizedTools {

	private final Supplier<AgentToolRegistry> registry;

	private final Supplier<@Nullable AuthorizationMiddleware> authorization;

	private final Supplier<@Nullable AuthorizationRulesMiddleware> rules;

	private final InvocationSource source;

	/**
	 * Creates the decision; each supplier is asked on each question until it gives a
	 * value, which is then kept: they may be beans created later, and a bean found is not
	 * looked up again for every tool of every list (an {@code ObjectProvider} resolves
	 * its dependency anew at each call).
	 * @param registry the registered tools
	 * @param authorization the middleware that refuses callers without a tool's
	 * authorities, giving {@code null} when authorization is off
	 * @param rules the middleware that applies the authorization rules, giving
	 * {@code null} when there is none
	 * @param source where the calls of the callers asking come from, as the rules see it
	 */
	public AuthorizedTools(Supplier<AgentToolRegistry> registry,
			Supplier<@Nullable AuthorizationMiddleware> authorization,
			Supplier<@Nullable AuthorizationRulesMiddleware> rules, InvocationSource source) {
		this.registry = new UntilFound<>(Objects.requireNonNull(registry, "registry"));
		this.authorization = new UntilFound<>(Objects.requireNonNull(authorization, "authorization"));
		this.rules = new UntilFound<>(Objects.requireNonNull(rules, "rules"));
		this.source = Objects.requireNonNull(source, "source");
	}

	/**
	 * Whether a caller is offered a registered tool. A tool the registry does not know
	 * (published without our chain) is not ours to hide.
	 * @param toolName the name of the tool
	 * @param caller the authenticated caller, or {@code null} for an unauthenticated one
	 * @return {@code true} when the registry does not know the tool, or the caller may
	 * call it
	 */
	public boolean permits(String toolName, @Nullable ToolPrincipal caller) {
		return this.registry.get().find(toolName).map((tool) -> permits(tool.descriptor(), caller)).orElse(true);
	}

	/**
	 * Whether a caller is offered a tool, by its descriptor: the one it is, or is about
	 * to be, registered with.
	 * @param tool the tool
	 * @param caller the authenticated caller, or {@code null} for an unauthenticated one
	 * @return {@code true} when the caller holds every authority the tool requires and no
	 * rule that reads no arguments refuses it
	 */
	public boolean permits(ToolDescriptor tool, @Nullable ToolPrincipal caller) {
		AuthorizationMiddleware authorization = this.authorization.get();
		if (authorization != null && !authorization.permits(tool, caller)) {
			return false;
		}
		AuthorizationRulesMiddleware rules = this.rules.get();
		return rules == null || rules.permits(tool, caller, this.source);
	}

	// Asks its supplier until it gives a value, then keeps it: a null (no such bean yet,
	// or none) is never kept, so a bean created later is still found (Spring's
	// SingletonSupplier keeps a null)
	private static final class UntilFound<T> implements Supplier<T> {

		private final Supplier<T> supplier;

		private volatile @Nullable T found;

		UntilFound(Supplier<T> supplier) {
			this.supplier = supplier;
		}

		@Override
		public T get() {
			T value = this.found;
			if (value == null) {
				value = this.supplier.get();
				this.found = value;
			}
			return value;
		}

	}

}
