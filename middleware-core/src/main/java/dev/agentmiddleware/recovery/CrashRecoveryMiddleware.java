package dev.agentmiddleware.recovery;

import dev.agentmiddleware.recovery.CrashRecoveryPolicy.SessionToolMatcher;

import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;
import dev.agentmiddleware.tool.ToolMiddlewareException;

/**
 * Recovers tools whose session crashed. When a tool with a {@link CrashRecoveryPolicy}
 * fails with what the policy calls a crash, the {@link ToolSessionReset} resets the
 * call's session, {@link MiddlewareEvent#CRASH_RECOVERED} is counted, and the call is
 * retried <em>once</em>, with the same invocation. Tools without a policy are left alone
 * and cost nothing.
 *
 * <p>
 * <b>Exceptions:</b> failures that are not crashes, including a non-crash failure of the
 * retry, propagate unchanged. The call fails with a {@link CrashRecoveryException} when
 * the retry crashes too ({@code CRASHED_AGAIN}, after exactly one reset), when the reset
 * itself fails ({@code RESET_FAILED}, no retry) or when no reset is configured
 * ({@code NO_SESSION_RESET}: the crash only becomes a clean error, no retry). A crash on
 * a thread that was interrupted (its caller gave up, for example on a timeout) propagates
 * unchanged, without a reset or a retry.
 *
 * <p>
 * <b>Threading:</b> the reset and the retry run on the calling thread, inside any timeout
 * around this layer. <pre>{@code
 * CrashRecoveryMiddleware recovery = CrashRecoveryMiddleware.builder()
 *     .policies((tool) -> SessionToolMatcher.BROWSER.matches(tool) ? CrashRecoveryPolicy.DEFAULT : null)
 *     .sessionReset((invocation, crash) -> browsers.close(invocation.sessionId()))
 *     .build();
 * }</pre>
 */
public final class CrashRecoveryMiddleware extends BuiltInMiddleware<CrashRecoveryPolicy> {

	/** The name of this middleware in chains and in {@code decidedBy}. */
	public static final String NAME = "crash-recovery";

	private final @Nullable ToolSessionReset sessionReset;

	private CrashRecoveryMiddleware(Builder builder) {
		super(NAME, builder);
		this.sessionReset = builder.sessionReset;
	}

	/**
	 * Starts a crash-recovery middleware for the tools tagged {@code browser} with the
	 * {@linkplain CrashRecoveryPolicy#DEFAULT default policy}, no session reset, no
	 * metrics and order {@link BuiltInOrder#CRASH_RECOVERY}.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	protected ToolHandler wrap(ToolDescriptor tool, CrashRecoveryPolicy policy, ToolHandler next) {
		return new RecoveringHandler(tool.name(), policy, next);
	}

	/**
	 * Whether a {@link ToolSessionReset} is configured, so that a crash leads to a reset
	 * and one retry.
	 * @return {@code false} if a crash only becomes a clean error
	 */
	public boolean hasSessionReset() {
		return this.sessionReset != null;
	}

	@Override
	public String toString() {
		return "CrashRecoveryMiddleware[order=" + order() + ", sessionReset="
				+ ((this.sessionReset != null) ? "configured" : "none") + "]";
	}

	private final class RecoveringHandler implements ToolHandler {

		private final String toolName;

		private final CrashRecoveryPolicy policy;

		private final ToolHandler next;

		RecoveringHandler(String toolName, CrashRecoveryPolicy policy, ToolHandler next) {
			this.toolName = toolName;
			this.policy = policy;
			this.next = next;
		}

		@Override
		public @Nullable Object handle(ToolInvocation invocation) throws Exception {
			try {
				return this.next.handle(invocation);
			}
			catch (Exception ex) {
				if (!this.policy.isCrash(ex) || Thread.currentThread().isInterrupted()) {
					throw ex;
				}
				return recover(invocation, ex);
			}
		}

		private @Nullable Object recover(ToolInvocation invocation, Exception crash) throws Exception {
			ToolSessionReset reset = CrashRecoveryMiddleware.this.sessionReset;
			if (reset == null) {
				throw failure(CrashRecoveryException.Reason.NO_SESSION_RESET, "Tool '" + this.toolName
						+ "' crashed and no session reset is configured, so it was not retried; try again later",
						crash);
			}
			try {
				reset.reset(invocation, crash);
			}
			catch (Exception resetFailure) {
				CrashRecoveryException failure = failure(CrashRecoveryException.Reason.RESET_FAILED,
						"Tool '" + this.toolName + "' crashed and resetting its session failed; giving up",
						resetFailure);
				failure.addSuppressed(crash);
				throw failure;
			}
			metrics().count(MiddlewareEvent.CRASH_RECOVERED, this.toolName);
			try {
				return this.next.handle(invocation);
			}
			catch (Exception again) {
				if (!this.policy.isCrash(again)) {
					throw again;
				}
				CrashRecoveryException failure = failure(CrashRecoveryException.Reason.CRASHED_AGAIN,
						"Tool '" + this.toolName + "' crashed again after its session was reset; giving up", again);
				if (again != crash) {
					failure.addSuppressed(crash);
				}
				throw failure;
			}
		}

		private CrashRecoveryException failure(CrashRecoveryException.Reason reason, String message, Throwable cause) {
			return new CrashRecoveryException(this.toolName, NAME, reason, message, cause);
		}

	}

	/**
	 * Builds a {@link CrashRecoveryMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<CrashRecoveryPolicy, Builder> {

		private @Nullable ToolSessionReset sessionReset;

		private Builder() {
			super((tool) -> SessionToolMatcher.BROWSER.matches(tool) ? CrashRecoveryPolicy.DEFAULT : null,
					BuiltInOrder.CRASH_RECOVERY);
		}

		/**
		 * Sets what resets a crashed session; without one, a crash only becomes a clean
		 * error.
		 * @param sessionReset the reset, or {@code null} for none
		 * @return this builder
		 */
		public Builder sessionReset(@Nullable ToolSessionReset sessionReset) {
			this.sessionReset = sessionReset;
			return this;
		}

		@Override
		public CrashRecoveryMiddleware build() {
			return new CrashRecoveryMiddleware(this);
		}

	}

	/**
	 * A tool's session crashed and crash recovery could not save the call: no session
	 * reset is configured, the reset failed, or the tool crashed again after its session
	 * was reset. The crash is kept as the cause (or, when the reset failed, the reset's
	 * failure is the cause and the crash is suppressed). <pre>{@code
	 * catch (CrashRecoveryException ex) {
	 *     if (ex.reason() == CrashRecoveryException.Reason.CRASHED_AGAIN) {
	 *         alertOperations(ex.toolName());
	 *     }
	 * }
	 * }</pre>
	 */
	public static class CrashRecoveryException extends ToolMiddlewareException {

		private final Reason reason;

		/**
		 * Creates the exception.
		 * @param toolName the tool that crashed
		 * @param decidedBy the middleware that gave up
		 * @param reason why recovery failed
		 * @param message the actionable message
		 * @param cause the crash, or the reset's failure
		 */
		public CrashRecoveryException(String toolName, String decidedBy, Reason reason, String message,
				Throwable cause) {
			super(toolName, decidedBy, message, cause, true);
			this.reason = reason;
		}

		/**
		 * Why recovery failed.
		 * @return the reason
		 */
		public Reason reason() {
			return this.reason;
		}

		/**
		 * Why crash recovery could not save a call.
		 */
		public enum Reason {

			/** No {@link ToolSessionReset} is configured; the call was not retried. */
			NO_SESSION_RESET,

			/** The {@link ToolSessionReset} failed; the call was not retried. */
			RESET_FAILED,

			/** The tool crashed again on its one retry after the reset. */
			CRASHED_AGAIN

		}

	}

}
