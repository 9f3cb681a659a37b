package dev.agentmiddleware.recovery;

import java.util.List;
import java.util.Objects;

import dev.agentmiddleware.tool.ToolMiddlewareException;
import dev.agentmiddleware.tool.ToolSessionCrashedException;
import dev.agentmiddleware.tool.TransientToolException;

/**
 * Which failures of a tool count as a crash of its session. A {@link ToolSessionCrashedException} always does; so
 * does an instance of one of the {@code crashTypes}, such as the exception a browser driver throws when its
 * browser died. With {@code anyRuntimeExceptionIsCrash} (the {@linkplain #DEFAULT default}), every
 * {@link RuntimeException} of the tool counts too (Java's equivalent of a panic), except the chain's own
 * {@link ToolMiddlewareException}s (denials, rate limits, invalid arguments) and a {@link TransientToolException} (a
 * signal asking for a retry, not a reset), which never do. Checked exceptions (an {@code IOException} reading a page)
 * are ordinary failures unless listed in {@code crashTypes}.
 * <pre>{@code
 * CrashRecoveryPolicy policy = new CrashRecoveryPolicy(List.of(TargetClosedError.class), false);
 * }</pre>
 *
 * @param crashTypes further exception types that mean the session crashed (subclasses included)
 * @param anyRuntimeExceptionIsCrash whether any runtime exception of the tool counts as a crash
 */
public record CrashRecoveryPolicy(List<Class<? extends Exception>> crashTypes, boolean anyRuntimeExceptionIsCrash) {

	/** A {@link ToolSessionCrashedException} or any other unchecked exception of the tool is a crash. */
	public static final CrashRecoveryPolicy DEFAULT = new CrashRecoveryPolicy(List.of(), true);

	/**
	 * Validates the policy.
	 */
	public CrashRecoveryPolicy {
		crashTypes = List.copyOf(Objects.requireNonNull(crashTypes, "crashTypes"));
	}

	/**
	 * Whether a failure of the tool means its session crashed.
	 * @param failure what the tool threw
	 * @return {@code true} if the session should be reset and the call retried
	 */
	public boolean isCrash(Throwable failure) {
		if (failure instanceof ToolSessionCrashedException) {
			return true;
		}
		for (Class<? extends Exception> type : this.crashTypes) {
			if (type.isInstance(failure)) {
				return true;
			}
		}
		return this.anyRuntimeExceptionIsCrash && failure instanceof RuntimeException
				&& !(failure instanceof ToolMiddlewareException) && !(failure instanceof TransientToolException);
	}

}
