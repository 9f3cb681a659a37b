package dev.agentmiddleware.autoconfigure.cache;

import java.time.Duration;

import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreSettings;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.CachePolicy;
import dev.agentmiddleware.cache.CachePolicy.CacheScope;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import static dev.agentmiddleware.autoconfigure.PerToolSettings.required;

/**
 * Configuration of the cache of tool results. <pre>{@code
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
@ConfigurationProperties(ToolCacheProperties.PREFIX)
public class ToolCacheProperties extends ToolMiddlewareProperties<ToolCacheProperties.Settings, CachePolicy> {

	/** The prefix of the cache properties. */
	public static final String PREFIX = "agent.middleware.cache";

	@NestedConfigurationProperty
	private final StoreSettings store = new StoreSettings();

	private final Invalidation invalidation = new Invalidation();

	public ToolCacheProperties() {
		super(PREFIX, BuiltInOrder.CACHE,
				new Settings(null, CachePolicy.DEFAULT_TTL, CachePolicy.DEFAULT_MAX_SIZE, CacheScope.SESSION));
	}

	/**
	 * How invalidations reach the other instances of a cluster.
	 * @return the invalidation settings
	 */
	@Override
	protected void validateOwnSettings(PropertyChecks checks) {
		storeType().requireMemoryOrJdbc(checks.property(storeTypeProperty().substring(PREFIX.length() + 1)));
	}

	/**
	 * Where invalidations travel between instances, as every store is chosen:
	 * {@code store.type}.
	 * @return the store settings
	 */
	public StoreSettings getStore() {
		return this.store;
	}

	/**
	 * The store type in effect: {@code store.type}, or the deprecated
	 * {@code invalidation.type} where only it is set.
	 * @return the store type
	 */
	public StoreType storeType() {
		return (this.invalidation.typeSet && this.store.getType() == StoreType.AUTO) ? this.invalidation.type
				: this.store.getType();
	}

	/**
	 * The property that chose the {@link #storeType() store type}, for messages.
	 * @return {@code agent.middleware.cache.store.type}, or the deprecated
	 * {@code agent.middleware.cache.invalidation.type}
	 */
	public String storeTypeProperty() {
		return PREFIX + ((this.invalidation.typeSet && this.store.getType() == StoreType.AUTO) ? ".invalidation.type"
				: ".store.type");
	}

	public Invalidation getInvalidation() {
		return this.invalidation;
	}

	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return CacheMiddleware.cachedByDefault(tool);
	}

	@Override
	protected @Nullable String refusal(ToolDescriptor tool) {
		return tool.readOnly() ? null
				: "is not read-only: a cached result would answer a call without running its side effects";
	}

	@Override
	protected CachePolicy createPolicy(Settings settings) {
		return new CachePolicy(required(settings.getTtl(), "ttl"), required(settings.getMaxSize(), "maxSize"),
				required(settings.getScope(), "scope"));
	}

	/**
	 * How one tool's results are cached.
	 *
	 * <p>
	 * {@code enabled}: Whether results are cached: under 'defaults', of every read-only
	 * tool not listed (not set: read-only tools); under 'tools', of that tool (not set:
	 * true, but a tool that is not read-only needs true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * How long a result is kept after it was computed.
		 */
		private @Nullable Duration ttl;

		/**
		 * Most results of the tool kept at once, across all sessions.
		 */
		private @Nullable Long maxSize;

		/**
		 * Who shares cached results: each session, each principal, or every caller
		 * (global).
		 */
		private @Nullable CacheScope scope;

		public Settings() {
		}

		Settings(@Nullable Boolean enabled, @Nullable Duration ttl, @Nullable Long maxSize,
				@Nullable CacheScope scope) {
			setEnabled(enabled);
			this.ttl = ttl;
			this.maxSize = maxSize;
			this.scope = scope;
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

	}

	/**
	 * How invalidations reach the other instances; cached entries always stay in each
	 * instance's memory.
	 */
	public static class Invalidation {

		private StoreType type = StoreType.AUTO;

		private boolean typeSet;

		/**
		 * How often each instance looks for the invalidations of the others; on
		 * PostgreSQL a NOTIFY wakes it sooner.
		 */
		private Duration pollInterval = Duration.ofMillis(500);

		/**
		 * Whether the JDBC invalidations create their table (agent_cache_invalidation) on
		 * startup when it is missing.
		 */
		private boolean initializeSchema = true;

		/**
		 * Where invalidations travel.
		 * @return the store type
		 * @deprecated since 0.1.0 for {@code agent.middleware.cache.store.type}, which
		 * chooses the store as every other feature's {@code store.type} does
		 */
		@Deprecated(since = "0.1.0")
		@DeprecatedConfigurationProperty(replacement = "agent.middleware.cache.store.type", since = "0.1.0")
		public StoreType getType() {
			return this.type;
		}

		/**
		 * Sets where invalidations travel.
		 * @param type the store type
		 * @deprecated since 0.1.0 for {@code agent.middleware.cache.store.type}
		 */
		@Deprecated(since = "0.1.0")
		public void setType(StoreType type) {
			this.type = type;
			this.typeSet = true;
		}

		/**
		 * Whether the deprecated {@code invalidation.type} was set (not a property: no
		 * bean getter).
		 * @return whether it was
		 */
		public boolean deprecatedTypeSet() {
			return this.typeSet;
		}

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public void setPollInterval(Duration pollInterval) {
			this.pollInterval = pollInterval;
		}

		public boolean isInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(boolean initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

}
