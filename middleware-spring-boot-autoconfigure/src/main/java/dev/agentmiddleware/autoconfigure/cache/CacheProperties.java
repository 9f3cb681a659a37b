package dev.agentmiddleware.autoconfigure.cache;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.ToolSettings;
import dev.agentmiddleware.cache.CachePolicy;
import dev.agentmiddleware.cache.CacheScope;
import dev.agentmiddleware.chain.BuiltInOrder;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the cache of tool results.
 * <pre>{@code
 * agent:
 *   middleware:
 *     cache:
 *       defaults:
 *         ttl: 5m
 *       tools:
 *         search-docs:
 *           enabled: true
 *           scope: global
 * }</pre>
 */
@ConfigurationProperties(CacheProperties.PREFIX)
public class CacheProperties {

	/** The prefix of the cache properties. */
	public static final String PREFIX = "agent.middleware.cache";

	/**
	 * Whether tool results are cached.
	 */
	private boolean enabled = true;

	/**
	 * Position of the cache in each tool's chain; a lower order runs further out.
	 */
	private int order = BuiltInOrder.CACHE;

	/**
	 * Settings of every tool that has no override of its own.
	 */
	private final Settings defaults = new Settings(null, CachePolicy.DEFAULT_TTL, CachePolicy.DEFAULT_MAX_SIZE,
			CacheScope.SESSION);

	/**
	 * Per-tool overrides by tool name; fields not set fall back to the defaults.
	 */
	private final Map<String, Settings> tools = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	public Settings getDefaults() {
		return this.defaults;
	}

	public Map<String, Settings> getTools() {
		return this.tools;
	}

	/**
	 * How one tool's results are cached.
	 */
	public static class Settings implements ToolSettings<Settings> {

		/**
		 * Whether the tool's results are cached; when not set, only read-only tools are cached.
		 */
		private @Nullable Boolean enabled;

		/**
		 * How long a result is kept after it was computed.
		 */
		private @Nullable Duration ttl;

		/**
		 * Most results of the tool kept at once, across all sessions.
		 */
		private @Nullable Long maxSize;

		/**
		 * Who shares cached results: each session, each principal, or every caller (global).
		 */
		private @Nullable CacheScope scope;

		public Settings() {
		}

		Settings(@Nullable Boolean enabled, @Nullable Duration ttl, @Nullable Long maxSize,
				@Nullable CacheScope scope) {
			this.enabled = enabled;
			this.ttl = ttl;
			this.maxSize = maxSize;
			this.scope = scope;
		}

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(@Nullable Duration ttl) {
			this.ttl = ttl;
		}

		public @Nullable Long getMaxSize() {
			return this.maxSize;
		}

		public void setMaxSize(@Nullable Long maxSize) {
			this.maxSize = maxSize;
		}

		public @Nullable CacheScope getScope() {
			return this.scope;
		}

		public void setScope(@Nullable CacheScope scope) {
			this.scope = scope;
		}

		@Override
		public Settings withDefaults(Settings defaults) {
			return new Settings((this.enabled != null) ? this.enabled : defaults.enabled,
					(this.ttl != null) ? this.ttl : defaults.ttl,
					(this.maxSize != null) ? this.maxSize : defaults.maxSize,
					(this.scope != null) ? this.scope : defaults.scope);
		}

	}

}
