package dev.agentmiddleware.autoconfigure.thread;

import java.time.Clock;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The {@link ThreadStore} that keeps thread metadata (such as todo lists), chosen by
 * {@code agent.middleware.threads.store.type} ({@link StoreType}): a {@link JdbcThreadStore} on the application's
 * {@code DataSource} when there is one, otherwise in memory.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class,
		afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnBooleanProperty(name = AgentMiddlewareProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ThreadStoreProperties.class)
public final class ThreadStoreAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(JdbcClient.class)
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

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnStoreType(prefix = ThreadStoreProperties.PREFIX, value = StoreType.JDBC)
	@ConditionalOnMissingBean(DataSource.class)
	static class MissingDataSourceConfiguration {

		MissingDataSourceConfiguration() {
			throw StoreType.missingDataSource(ThreadStoreProperties.PREFIX, "thread");
		}

	}

	// Declared here, not in a nested configuration, so that it is considered after the JDBC store.
	@Bean
	@ConditionalOnMissingBean(ThreadStore.class)
	InMemoryThreadStore threadStore(ThreadStoreProperties properties) {
		return new InMemoryThreadStore(properties.getMemory().getMaxThreads());
	}

}
