package dev.agentmiddleware.autoconfigure.thread;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The {@link ThreadStore} that keeps thread metadata (such as todo lists), chosen by
 * {@code agent.middleware.threads.store.type}: in memory here, unless a store module
 * contributes its {@link ThreadStore} (the JDBC module: on the application's
 * {@code DataSource} when there is one).
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = AgentMiddlewareProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ThreadStoreProperties.class)
public final class ThreadStoreAutoConfiguration {

	// A store module (JDBC) contributes its store before this auto-configuration runs.
	@Bean
	@ConditionalOnMissingBean(ThreadStore.class)
	InMemoryThreadStore threadStore(ThreadStoreProperties properties) {
		return new InMemoryThreadStore(properties.getMemory().getMaxThreads());
	}

}
