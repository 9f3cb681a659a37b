package dev.agentmiddleware.autoconfigure.tool;

import java.util.Objects;
import java.util.concurrent.Callable;

import dev.agentmiddleware.autoconfigure.tool.ToolCallSessionResolver.ToolCallSession;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * Runs direct Java calls of {@code @AgentTool} methods in a session and for a principal.
 * Without a scope, a Java call has only what the {@link ToolCallSessionResolver} finds
 * (by default the current HTTP session and Spring Security principal, when they exist),
 * and with neither a session-scoped cache never hits for it.
 *
 * <p>
 * The scope belongs to the current thread; scopes nest, and closing one restores the one
 * it replaced. Work handed to other threads does not carry it. <pre>{@code
 * String answer = ToolCallScope.call("conversation-42", null, () -> weatherTools.getWeather("Lisbon"));
 *
 * ToolPrincipal alice = ToolPrincipal.of("alice", Set.of("SCOPE_weather.read"));
 * try (ToolCallScope scope = ToolCallScope.open("conversation-42", alice)) {
 *     weatherTools.getWeather("Lisbon");
 *     weatherTools.getWeather("Lisbon");   // a hit of the session-scoped cache
 * }
 * }</pre>
 */
public final class ToolCallScope implements AutoCloseable {

	private static final ThreadLocal<@Nullable ToolCallScope> current = new ThreadLocal<>();

	private final ToolCallSession session;

	private final @Nullable ToolCallScope previous;

	private boolean closed;

	private ToolCallScope(ToolCallSession session, @Nullable ToolCallScope previous) {
		this.session = session;
		this.previous = previous;
	}

	/**
	 * Opens a scope on the current thread; close it on the same thread, best with
	 * try-with-resources.
	 * @param sessionId the session id, or {@code null} for none
	 * @param principal the principal, or {@code null} to take it from Spring Security's
	 * {@code SecurityContext}
	 * @return the scope
	 */
	public static ToolCallScope open(@Nullable String sessionId, @Nullable ToolPrincipal principal) {
		ToolCallScope scope = new ToolCallScope(new ToolCallSession(sessionId, principal), current.get());
		current.set(scope);
		return scope;
	}

	/**
	 * Calls an action inside a scope.
	 * @param sessionId the session id, or {@code null} for none
	 * @param principal the principal, or {@code null} to take it from Spring Security's
	 * {@code SecurityContext}
	 * @param action the action, typically calls of tool methods
	 * @param <T> the result type
	 * @return the action's result
	 * @throws Exception what the action throws
	 */
	public static <T> T call(@Nullable String sessionId, @Nullable ToolPrincipal principal, Callable<T> action)
			throws Exception {
		try (ToolCallScope scope = open(sessionId, principal)) {
			return action.call();
		}
	}

	/**
	 * Runs an action inside a scope.
	 * @param sessionId the session id, or {@code null} for none
	 * @param principal the principal, or {@code null} to take it from Spring Security's
	 * {@code SecurityContext}
	 * @param action the action, typically calls of tool methods
	 */
	public static void run(@Nullable String sessionId, @Nullable ToolPrincipal principal, Runnable action) {
		try (ToolCallScope scope = open(sessionId, principal)) {
			action.run();
		}
	}

	/**
	 * The session of the innermost open scope of the current thread.
	 * @return the session, or {@code null} outside any scope
	 */
	public static @Nullable ToolCallSession currentSession() {
		ToolCallScope scope = current.get();
		return (scope != null) ? scope.session : null;
	}

	/**
	 * This scope's session.
	 * @return the session
	 */
	public ToolCallSession session() {
		return this.session;
	}

	/**
	 * Closes the scope, restoring the one it replaced.
	 * @throws IllegalStateException if an inner scope is still open
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		if (current.get() != this) {
			throw new IllegalStateException(
					"ToolCallScope closed out of order: close inner scopes first, on the " + "thread that opened them");
		}
		this.closed = true;
		if (this.previous != null) {
			current.set(this.previous);
		}
		else {
			current.remove();
		}
	}

	@Override
	public String toString() {
		return "ToolCallScope[session=" + this.session.sessionId() + ", principal="
				+ Objects.toString(this.session.principalName()) + "]";
	}

}
