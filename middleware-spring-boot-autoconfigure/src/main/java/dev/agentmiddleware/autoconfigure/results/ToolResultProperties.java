package dev.agentmiddleware.autoconfigure.results;

import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.results.ResultPolicy.OnExceed;
import dev.agentmiddleware.results.ResultPolicy;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of result guards: how long a tool's result may be, what happens to a longer one, and whether
 * secrets in it are redacted, for every tool ({@code defaults}) and per tool ({@code tools.<name>}). On by default
 * for every tool: results are cut at 100,000 characters and their secrets redacted.
 * <pre>{@code
 * agent:
 *   middleware:
 *     results:
 *       defaults:
 *         max-chars: 20000
 *       tools:
 *         read-config:
 *           on-exceed: refuse
 *         show-token:
 *           redact-secrets: false
 * }</pre>
 */
@ConfigurationProperties(ToolResultProperties.PREFIX)
class ToolResultProperties extends ToolMiddlewareProperties<ToolResultProperties.Settings, ResultPolicy> {

	/** The prefix of the result guard properties. */
	public static final String PREFIX = "agent.middleware.results";

	public ToolResultProperties() {
		super(PREFIX, BuiltInOrder.RESULTS, Settings.defaults());
	}

	// Every tool's result is guarded.
	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return true;
	}

	@Override
	protected ResultPolicy createPolicy(Settings settings) {
		Integer maxChars = settings.getMaxChars();
		OnExceed onExceed = settings.getOnExceed();
		Boolean redactSecrets = settings.getRedactSecrets();
		return new ResultPolicy((maxChars != null) ? maxChars : ResultPolicy.DEFAULT_MAX_CHARS,
				(onExceed != null) ? onExceed : OnExceed.TRUNCATE, redactSecrets == null || redactSecrets);
	}

	/**
	 * The result guards of a tool, or of every tool in {@code defaults}.
	 *
	 * <p>{@code enabled}: Whether results are guarded: under 'defaults', for every tool not listed (not set: all);
	 * under 'tools', for that tool (not set: true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * Longest result in characters (of its text, or of its JSON text for a structured result); 0 means no limit.
		 */
		private @Nullable Integer maxChars;

		/**
		 * What happens to a longer result: truncate (cut with a marker saying how much was left out) or refuse.
		 */
		private @Nullable OnExceed onExceed;

		/**
		 * Whether secrets in the result (credentials in URLs, Authorization values, private keys, secret-named
		 * fields) are replaced by [REDACTED] before the model or client sees it.
		 */
		private @Nullable Boolean redactSecrets;

		static Settings defaults() {
			Settings defaults = new Settings();
			defaults.setMaxChars(ResultPolicy.DEFAULT_MAX_CHARS);
			defaults.setOnExceed(OnExceed.TRUNCATE);
			defaults.setRedactSecrets(true);
			return defaults;
		}

		public @Nullable Integer getMaxChars() {
			return this.maxChars;
		}

		public void setMaxChars(@Nullable Integer maxChars) {
			this.maxChars = maxChars;
		}

		public @Nullable OnExceed getOnExceed() {
			return this.onExceed;
		}

		public void setOnExceed(@Nullable OnExceed onExceed) {
			this.onExceed = onExceed;
		}

		public @Nullable Boolean getRedactSecrets() {
			return this.redactSecrets;
		}

		public void setRedactSecrets(@Nullable Boolean redactSecrets) {
			this.redactSecrets = redactSecrets;
		}

	}

}
