package dev.agentmiddleware.autoconfigure.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.retry.RetryMiddleware;
import dev.agentmiddleware.retry.RetryPolicy;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

import static dev.agentmiddleware.autoconfigure.PerToolSettings.required;

/**
 * Configuration of tool retries. Every idempotent or read-only tool is retried with the
 * defaults unless {@code defaults.enabled} is false; a tool that is neither is retried
 * only when listed under {@code tools} with {@code enabled: true}, and listing it without
 * fails startup. <pre>
 * agent:
 *   middleware:
 *     retry:
 *       defaults:
 *         max-attempts: 3
 *       tools:
 *         get-weather:
 *           max-attempts: 5
 *           retry-exceptions: java.net.SocketTimeoutException
 * </pre>
 */
@ConfigurationProperties(ToolRetryProperties.PREFIX)
class ToolRetryProperties extends ToolMiddlewareProperties<ToolRetryProperties.Settings, RetryPolicy> {

	/** The prefix of the retry properties. */
	public static final String PREFIX = "agent.middleware.retry";

	public ToolRetryProperties() {
		super(PREFIX, BuiltInOrder.RETRY, Settings.defaults());
	}

	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return RetryMiddleware.isRetryable(tool);
	}

	@Override
	protected @Nullable String refusal(ToolDescriptor tool) {
		return RetryMiddleware.isRetryable(tool) ? null
				: "is neither idempotent nor read-only: a retry could repeat its side effects (declare "
						+ "@AgentTool(idempotent = true) if running it twice is safe)";
	}

	@Override
	protected RetryPolicy createPolicy(Settings settings) {
		return new RetryPolicy(required(settings.getMaxAttempts(), "maxAttempts"),
				required(settings.getInitialBackoff(), "initialBackoff"),
				required(settings.getMultiplier(), "multiplier"), required(settings.getJitter(), "jitter"),
				required(settings.getMaxBackoff(), "maxBackoff"),
				required(settings.getRetryExceptions(), "retryExceptions"),
				required(settings.getIgnoreExceptions(), "ignoreExceptions"));
	}

	/**
	 * The retries of one tool, or the defaults of all. A setting left out is {@code null}
	 * and falls back to the defaults.
	 *
	 * <p>
	 * {@code enabled}: Whether failed calls are retried: under 'defaults', for every
	 * idempotent or read-only tool not listed (not set: those tools); under 'tools', for
	 * that tool (not set: true, but a tool that is neither needs true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * How many attempts a call makes in all, the first included.
		 */
		private @Nullable Integer maxAttempts;

		/**
		 * How long to wait after the first failed attempt.
		 */
		private @Nullable Duration initialBackoff;

		/**
		 * How much longer each further wait is than the one before.
		 */
		private @Nullable Double multiplier;

		/**
		 * Randomization factor of each wait, from 0 (none) to below 1: a wait w becomes
		 * one between w * (1 - jitter) and w * (1 + jitter).
		 */
		private @Nullable Double jitter;

		/**
		 * Longest wait between two attempts.
		 */
		private @Nullable Duration maxBackoff;

		/**
		 * Exception types whose failures are retried, with their subclasses; denials,
		 * rate limits, argument errors and contract violations are never retried,
		 * timeouts only when ToolTimeoutException is listed.
		 */
		private @Nullable List<Class<? extends Throwable>> retryExceptions;

		/**
		 * Exception types whose failures are not retried even though they match
		 * 'retry-exceptions', with their subclasses; by default missing files and other
		 * file-system errors.
		 */
		private @Nullable List<Class<? extends Throwable>> ignoreExceptions;

		static Settings defaults() {
			RetryPolicy policy = RetryPolicy.defaults();
			Settings defaults = new Settings();
			defaults.maxAttempts = policy.maxAttempts();
			defaults.initialBackoff = policy.initialBackoff();
			defaults.multiplier = policy.multiplier();
			defaults.jitter = policy.jitter();
			defaults.maxBackoff = policy.maxBackoff();
			defaults.retryExceptions = new ArrayList<>(policy.retryOn());
			defaults.ignoreExceptions = new ArrayList<>(policy.ignore());
			return defaults;
		}

		public @Nullable Integer getMaxAttempts() {
			return this.maxAttempts;
		}

		public void setMaxAttempts(@Nullable Integer maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public @Nullable Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(@Nullable Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public @Nullable Double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(@Nullable Double multiplier) {
			this.multiplier = multiplier;
		}

		public @Nullable Double getJitter() {
			return this.jitter;
		}

		public void setJitter(@Nullable Double jitter) {
			this.jitter = jitter;
		}

		public @Nullable Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(@Nullable Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public @Nullable List<Class<? extends Throwable>> getRetryExceptions() {
			return this.retryExceptions;
		}

		public void setRetryExceptions(@Nullable List<Class<? extends Throwable>> retryExceptions) {
			this.retryExceptions = retryExceptions;
		}

		public @Nullable List<Class<? extends Throwable>> getIgnoreExceptions() {
			return this.ignoreExceptions;
		}

		public void setIgnoreExceptions(@Nullable List<Class<? extends Throwable>> ignoreExceptions) {
			this.ignoreExceptions = ignoreExceptions;
		}

	}

}
