package dev.agentmiddleware.autoconfigure.ratelimit;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import java.time.Duration;

import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreSettings;
import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

import static dev.agentmiddleware.autoconfigure.PerToolSettings.required;

/**
 * Configuration of tool rate limits. Only the tools listed under {@code tools} are
 * limited, unless {@code defaults.enabled} is true to limit every tool. <pre>
 * agent:
 *   middleware:
 *     rate-limit:
 *       tools:
 *         search:
 *           limit-for-period: 5
 *           limit-refresh-period: 1m
 *           key: tool-and-session
 *           max-calls-per-session: 20
 *           max-concurrent-calls: 3
 * </pre>
 */
@ConfigurationProperties(ToolRateLimitProperties.PREFIX)
public class ToolRateLimitProperties
		extends ToolMiddlewareProperties<ToolRateLimitProperties.Settings, RateLimitPolicy> {

	/** The prefix of the rate-limit properties. */
	public static final String PREFIX = "agent.middleware.rate-limit";

	/**
	 * Most limiters per session or principal, and session budgets, kept per tool; beyond
	 * it the least used are dropped.
	 */
	private int maxTrackedKeys = 10_000;

	/**
	 * How long a session may make no call of a tool before its call budget for that tool
	 * is forgotten.
	 */
	private Duration sessionIdleTimeout = Duration.ofHours(1);

	private final Store store = new Store();

	public ToolRateLimitProperties() {
		super(PREFIX, BuiltInOrder.RATE_LIMIT, Settings.defaults());
	}

	public int getMaxTrackedKeys() {
		return this.maxTrackedKeys;
	}

	public void setMaxTrackedKeys(int maxTrackedKeys) {
		this.maxTrackedKeys = maxTrackedKeys;
	}

	public Duration getSessionIdleTimeout() {
		return this.sessionIdleTimeout;
	}

	public void setSessionIdleTimeout(Duration sessionIdleTimeout) {
		this.sessionIdleTimeout = sessionIdleTimeout;
	}

	/**
	 * Where permits are counted: in memory per instance, or in the database for all
	 * instances.
	 * @return the store settings
	 */
	public Store getStore() {
		return this.store;
	}

	@Override
	protected void validateOwnSettings(PropertyChecks checks) {
		checks.atLeast("maxTrackedKeys", this.maxTrackedKeys, 1)
			.positive("sessionIdleTimeout", this.sessionIdleTimeout);
	}

	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return false;
	}

	@Override
	protected RateLimitPolicy createPolicy(Settings settings) {
		return new RateLimitPolicy(required(settings.getLimitForPeriod(), "limitForPeriod"),
				required(settings.getLimitRefreshPeriod(), "limitRefreshPeriod"),
				required(settings.getMaxWait(), "maxWait"), required(settings.getKey(), "key"),
				settings.getMaxCallsPerSession(), settings.getMaxConcurrentCalls());
	}

	/**
	 * The rate limit of one tool, or the defaults of all. A setting left out is
	 * {@code null} and falls back to the defaults.
	 *
	 * <p>
	 * {@code enabled}: Whether the rate limit applies: under 'defaults', to every tool
	 * not listed (not set: none); under 'tools', to that tool (not set: true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * How many calls each refresh period allows.
		 */
		private @Nullable Integer limitForPeriod;

		/**
		 * How often the permits refill.
		 */
		private @Nullable Duration limitRefreshPeriod;

		/**
		 * How long a call may wait for a permit before it is rejected; 0 rejects at once.
		 */
		private @Nullable Duration maxWait;

		/**
		 * What calls are counted per: the tool, the tool and session, or the tool and
		 * principal.
		 */
		private @Nullable RateLimitKey key;

		/**
		 * How many calls of the tool each session may make in all, never refilled while
		 * the session is active; none when not set.
		 */
		private @Nullable Integer maxCallsPerSession;

		/**
		 * How many calls of the tool each session may have running at once (calls without
		 * a session share one cap); none when not set.
		 */
		private @Nullable Integer maxConcurrentCalls;

		static Settings defaults() {
			Settings defaults = new Settings();
			defaults.limitForPeriod = 10;
			defaults.limitRefreshPeriod = Duration.ofMinutes(1);
			defaults.maxWait = Duration.ZERO;
			defaults.key = RateLimitKey.TOOL;
			return defaults;
		}

		public @Nullable Integer getLimitForPeriod() {
			return this.limitForPeriod;
		}

		public void setLimitForPeriod(@Nullable Integer limitForPeriod) {
			this.limitForPeriod = limitForPeriod;
		}

		public @Nullable Duration getLimitRefreshPeriod() {
			return this.limitRefreshPeriod;
		}

		public void setLimitRefreshPeriod(@Nullable Duration limitRefreshPeriod) {
			this.limitRefreshPeriod = limitRefreshPeriod;
		}

		public @Nullable Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(@Nullable Duration maxWait) {
			this.maxWait = maxWait;
		}

		public @Nullable RateLimitKey getKey() {
			return this.key;
		}

		public void setKey(@Nullable RateLimitKey key) {
			this.key = key;
		}

		public @Nullable Integer getMaxCallsPerSession() {
			return this.maxCallsPerSession;
		}

		public void setMaxCallsPerSession(@Nullable Integer maxCallsPerSession) {
			this.maxCallsPerSession = maxCallsPerSession;
		}

		public @Nullable Integer getMaxConcurrentCalls() {
			return this.maxConcurrentCalls;
		}

		public void setMaxConcurrentCalls(@Nullable Integer maxConcurrentCalls) {
			this.maxConcurrentCalls = maxConcurrentCalls;
		}

	}

	/**
	 * Where permits are counted: {@code auto}, {@code memory}, {@code jdbc} (Bucket4j on
	 * PostgreSQL) or {@code redis} (Bucket4j on Redis, through Spring Boot's Lettuce
	 * connection factory). Session budgets ({@code max-calls-per-session}) stay in each
	 * instance's memory.
	 */
	public static class Store extends StoreSettings {

		/**
		 * What a call gets when the shared store (database or Redis) is unreachable: deny
		 * (rejected as rate limited, 'rate limiter unavailable') or allow (runs without a
		 * limit).
		 */
		private OnUnavailable onUnavailable = OnUnavailable.DENY;

		/**
		 * Whether the JDBC store creates its table (agent_rate_limit_bucket) on startup
		 * when it is missing.
		 */
		private boolean initializeSchema = true;

		public OnUnavailable getOnUnavailable() {
			return this.onUnavailable;
		}

		public void setOnUnavailable(OnUnavailable onUnavailable) {
			this.onUnavailable = onUnavailable;
		}

		public boolean isInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(boolean initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

	/**
	 * What a call gets while the shared rate-limit store cannot be reached.
	 */
	public enum OnUnavailable {

		/** The call is rejected as rate limited (fail closed). */
		DENY,

		/** The call runs without a limit (fail open). */
		ALLOW

	}

}
