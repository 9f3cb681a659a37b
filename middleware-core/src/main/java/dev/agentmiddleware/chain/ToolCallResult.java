package dev.agentmiddleware.chain;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How the layers inside an interceptor ended: a value or an exception. Handed to
 * {@link ToolInterceptor#afterInvocation}, which may return it unchanged or replace it.
 * <pre>{@code
 * return result.isFailure() ? ToolCallResult.success(fallback) : result;
 * }</pre>
 */
public final class ToolCallResult {

	private final @Nullable Object value;

	private final @Nullable Exception error;

	private final boolean shortCircuited;

	private ToolCallResult(@Nullable Object value, @Nullable Exception error, boolean shortCircuited) {
		this.value = value;
		this.error = error;
		this.shortCircuited = shortCircuited;
	}

	/**
	 * A successful result.
	 * @param value the value, {@code null} for {@code void} tools
	 * @return the result
	 */
	public static ToolCallResult success(@Nullable Object value) {
		return new ToolCallResult(value, null, false);
	}

	/**
	 * A failed result.
	 * @param error the failure
	 * @return the result
	 */
	public static ToolCallResult failure(Exception error) {
		return new ToolCallResult(null, Objects.requireNonNull(error, "error"), false);
	}

	static ToolCallResult skipped(@Nullable Object value) {
		return new ToolCallResult(value, null, true);
	}

	/**
	 * Whether the layers inside ended with an exception.
	 * @return {@code true} on failure
	 */
	public boolean isFailure() {
		return this.error != null;
	}

	/**
	 * The value of a successful call.
	 * @return the value, {@code null} for failures and {@code void} tools
	 */
	public @Nullable Object value() {
		return this.value;
	}

	/**
	 * The failure.
	 * @return the exception, or {@code null} on success
	 */
	public @Nullable Exception error() {
		return this.error;
	}

	/**
	 * Whether an interceptor skipped the layers inside with a result of its own; the tool did not run.
	 * @return {@code true} if the call was short-circuited
	 */
	public boolean shortCircuited() {
		return this.shortCircuited;
	}

	/**
	 * Returns the value or throws the failure.
	 * @return the value
	 * @throws Exception the failure
	 */
	public @Nullable Object getOrThrow() throws Exception {
		if (this.error != null) {
			throw this.error;
		}
		return this.value;
	}

	@Override
	public String toString() {
		return (this.error != null) ? "failure(" + this.error.getClass().getSimpleName() + ")"
				: (this.shortCircuited ? "skipped" : "success");
	}

}
