package dev.agentmiddleware.autoconfigure.thread;

import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcThreadStore;
import java.util.UUID;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadStoreAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				ThreadStoreAutoConfiguration.class, JdbcStoresAutoConfiguration.class));

	@Test
	void autoKeepsThreadsInMemoryWithoutADataSource() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(InMemoryThreadStore.class)
			.doesNotHaveBean(JdbcThreadStore.class));
	}

	@Test
	void autoKeepsThreadsInTheDatabaseWhenADataSourceExists() {
		this.contextRunner.withUserConfiguration(DataSourceConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(JdbcThreadStore.class)
				.doesNotHaveBean(InMemoryThreadStore.class));
	}

	@Test
	void memoryKeepsThreadsInMemoryEvenWithADataSource() {
		this.contextRunner.withUserConfiguration(DataSourceConfiguration.class)
			.withPropertyValues("agent.middleware.threads.store.type=memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryThreadStore.class)
				.doesNotHaveBean(JdbcThreadStore.class));
	}

	@Test
	void jdbcUsesTheDataSource() {
		this.contextRunner.withUserConfiguration(DataSourceConfiguration.class)
			.withPropertyValues("agent.middleware.threads.store.type=JDBC")
			.run((context) -> assertThat(context).hasSingleBean(JdbcThreadStore.class));
	}

	@Test
	void jdbcWithoutADataSourceFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.threads.store.type=jdbc")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining(
						"Invalid configuration property 'agent.middleware.threads.store.type': the JDBC "
								+ "thread store needs a DataSource"));
	}

	@Configuration(proxyBeanMethods = false)
	static class DataSourceConfiguration {

		@Bean
		DataSource dataSource() {
			return new SimpleDriverDataSource(new org.h2.Driver(),
					"jdbc:h2:mem:threads-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		}

	}

}
