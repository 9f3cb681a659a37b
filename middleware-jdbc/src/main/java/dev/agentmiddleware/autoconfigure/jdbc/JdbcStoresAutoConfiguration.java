package dev.agentmiddleware.autoconfigure.jdbc;

import java.time.Clock;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalProperties;
import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import dev.agentmiddleware.autoconfigure.audit.AuditProperties;
import dev.agentmiddleware.autoconfigure.cache.CacheInvalidationTransport;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheProperties;
import dev.agentmiddleware.autoconfigure.ratelimit.DatabaseRateLimiterStores;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitProperties;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreProperties;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.thread.ThreadStore;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The stores that keep their state in the application's database, each contributed as the
 * bean its feature's auto-configuration uses instead of its in-memory store, by the one
 * rule of {@link StoreType} ({@code auto} is JDBC when the application has a
 * {@code DataSource}; {@code jdbc} without one fails startup naming the property, through
 * the Boot module's store check):
 * <ul>
 * <li>approvals ({@code agent.middleware.approval.store.type}):
 * {@link JdbcApprovalStore};</li>
 * <li>agent threads ({@code agent.middleware.threads.store.type}):
 * {@link JdbcThreadStore};</li>
 * <li>cache invalidations across instances ({@code agent.middleware.cache.store.type}):
 * {@link JdbcCacheInvalidations};</li>
 * <li>shared rate limits ({@code agent.middleware.rate-limit.store.type}, PostgreSQL):
 * Bucket4j's PostgreSQL backend, {@link Bucket4jJdbcRateLimiterStore}, which the
 * rate-limit auto-configuration chooses;</li>
 * <li>the audit trail ({@code agent.middleware.audit.store.type}):
 * {@link JdbcAuditStore}.</li>
 * </ul>
 * Runs before the features' auto-configurations, so that their in-memory stores back off.
 */
@AutoConfiguration(
		before = { ApprovalAutoConfiguration.class, AuditAutoConfiguration.class, ThreadStoreAutoConfiguration.class,
				ToolCacheAutoConfiguration.class, ToolRateLimitAutoConfiguration.class },
		after = AgentMiddlewareAutoConfiguration.class,
		afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({ JdbcClient.class, DataSource.class })
@ConditionalOnBooleanProperty(name = AgentMiddlewareProperties.PREFIX + ".enabled", matchIfMissing = true)
public final class JdbcStoresAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(AgentToolRegistry.class)
	@ConditionalOnBooleanProperty(name = ApprovalProperties.PREFIX + ".enabled", matchIfMissing = true)
	@EnableConfigurationProperties(ApprovalProperties.class)
	static class ApprovalStoreConfiguration {

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnBean(DataSource.class)
		@ConditionalOnStoreType(prefix = ApprovalProperties.PREFIX, value = { StoreType.AUTO, StoreType.JDBC })
		static class JdbcApprovalStoreConfiguration {

			@Bean(destroyMethod = "close")
			@ConditionalOnMissingBean(ApprovalStore.class)
			JdbcApprovalStore approvalStore(DataSource dataSource, ApprovalProperties properties,
					ObjectProvider<Clock> clock) {
				return JdbcApprovalStoreStarter.started(dataSource, properties.getStore(),
						clock.getIfAvailable(Clock::systemUTC));
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(AgentToolRegistry.class)
	@ConditionalOnBooleanProperty(name = AuditProperties.PREFIX + ".enabled", matchIfMissing = true)
	@EnableConfigurationProperties(AuditProperties.class)
	static class AuditStoreConfiguration {

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnBean(DataSource.class)
		@ConditionalOnStoreType(prefix = AuditProperties.PREFIX, value = { StoreType.AUTO, StoreType.JDBC })
		static class JdbcAuditStoreConfiguration {

			@Bean
			@ConditionalOnMissingBean(AuditStore.class)
			JdbcAuditStore auditStore(DataSource dataSource, AuditProperties properties) {
				JdbcAuditStore store = new JdbcAuditStore(dataSource);
				if (properties.getJdbc().isInitializeSchema()) {
					store.initializeSchema();
				}
				return store;
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(ThreadStoreProperties.class)
	static class ThreadStoreConfiguration {

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnSingleCandidate(DataSource.class)
		@ConditionalOnStoreType(prefix = ThreadStoreProperties.PREFIX, value = { StoreType.AUTO, StoreType.JDBC })
		static class JdbcThreadStoreConfiguration {

			@Bean
			@ConditionalOnMissingBean(ThreadStore.class)
			JdbcThreadStore threadStore(DataSource dataSource, ObjectProvider<JsonMapper> jsonMapper,
					ThreadStoreProperties properties) {
				JdbcThreadStore store = new JdbcThreadStore(JdbcClient.create(dataSource),
						jsonMapper.getIfAvailable(JsonMapper::new), Clock.systemUTC());
				if (properties.getJdbc().isInitializeSchema()) {
					store.initializeSchema(dataSource);
				}
				return store;
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "com.github.benmanes.caffeine.cache.Caffeine")
	@ConditionalOnBean(AgentToolRegistry.class)
	@ConditionalOnBooleanProperty(name = ToolCacheProperties.PREFIX + ".enabled", matchIfMissing = true)
	@EnableConfigurationProperties(ToolCacheProperties.class)
	static class CacheInvalidationConfiguration {

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnBean(DataSource.class)
		@ConditionalOnStoreType(prefix = ToolCacheProperties.PREFIX, value = { StoreType.AUTO, StoreType.JDBC },
				deprecatedProperty = ToolCacheProperties.PREFIX + ".invalidation.type")
		static class JdbcInvalidationConfiguration {

			@Bean(destroyMethod = "close")
			@ConditionalOnMissingBean(CacheInvalidationTransport.class)
			JdbcCacheInvalidations cacheInvalidations(DataSource dataSource, ToolCacheProperties properties) {
				ToolCacheProperties.Invalidation settings = properties.getInvalidation();
				JdbcCacheInvalidations invalidations = new JdbcCacheInvalidations(dataSource,
						settings.getPollInterval());
				if (settings.isInitializeSchema()) {
					invalidations.initializeSchema();
				}
				return invalidations;
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.github.bucket4j.postgresql.Bucket4jPostgreSQL")
	@ConditionalOnBean(AgentToolRegistry.class)
	@ConditionalOnBooleanProperty(name = ToolRateLimitProperties.PREFIX + ".enabled", matchIfMissing = true)
	static class RateLimiterStoreConfiguration {

		@Bean
		@ConditionalOnMissingBean
		DatabaseRateLimiterStores databaseRateLimiterStores() {
			return (dataSource, initializeSchema) -> {
				Bucket4jJdbcRateLimiterStore store = new Bucket4jJdbcRateLimiterStore(dataSource);
				if (initializeSchema) {
					store.initializeSchema();
				}
				return store;
			};
		}

	}

}
