package dev.agentmiddleware.autoconfigure;

import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class StoreTypeTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(SelectedStores.class);

	@Test
	void autoIsJdbcExactlyWhenADataSourceExists() {
		assertThat(StoreType.AUTO.resolve(true)).isEqualTo(StoreType.JDBC);
		assertThat(StoreType.AUTO.resolve(false)).isEqualTo(StoreType.MEMORY);
	}

	@Test
	void memoryAndJdbcAreWhatTheySay() {
		assertThat(StoreType.MEMORY.resolve(true)).isEqualTo(StoreType.MEMORY);
		assertThat(StoreType.JDBC.resolve(false)).isEqualTo(StoreType.JDBC);
	}

	@Test
	void missingDataSourceNamesTheStoreTypeProperty() {
		assertThat(StoreType.missingDataSource("agent.middleware.rate-limit", "rate-limit"))
			.hasMessageContaining("'agent.middleware.rate-limit.store.type'")
			.hasMessageContaining("the JDBC rate-limit store needs a DataSource");
	}

	@Test
	void theConditionDefaultsToAuto() {
		this.contextRunner.run((context) -> assertThat(context).hasBean("autoOrJdbc").doesNotHaveBean("memoryOnly"));
	}

	@Test
	void theConditionReadsTheTypeAsBootBindsAnEnum() {
		this.contextRunner.withPropertyValues("example.store.type=Memory")
			.run((context) -> assertThat(context).hasBean("memoryOnly").doesNotHaveBean("autoOrJdbc"));
		this.contextRunner.withPropertyValues("example.store.type=JDBC")
			.run((context) -> assertThat(context).hasBean("autoOrJdbc").doesNotHaveBean("memoryOnly"));
	}

	@Test
	void theConditionMatchesNothingForAValueThatIsNoStoreType() {
		this.contextRunner.withPropertyValues("example.store.type=jdcb")
			.run((context) -> assertThat(context).doesNotHaveBean("autoOrJdbc").doesNotHaveBean("memoryOnly"));
	}

	@Configuration(proxyBeanMethods = false)
	static class SelectedStores {

		@Bean
		@ConditionalOnStoreType(prefix = "example", value = { StoreType.AUTO, StoreType.JDBC })
		String autoOrJdbc() {
			return "jdbc";
		}

		@Bean
		@ConditionalOnStoreType(prefix = "example", value = StoreType.MEMORY)
		String memoryOnly() {
			return "memory";
		}

	}

}
