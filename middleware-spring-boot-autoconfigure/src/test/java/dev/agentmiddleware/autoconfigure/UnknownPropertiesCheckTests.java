package dev.agentmiddleware.autoconfigure;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

class UnknownPropertiesCheckTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class));

	@Test
	void anUnknownKeyDirectlyUnderThePrefixFailsStartupWithASuggestion() {
		this.contextRunner.withPropertyValues("agent.middleware.cahce.defaults.ttl=1m").run((context) -> {
			InvalidToolConfigurationException failure = failure(context);
			assertThat(failure.getProperty()).isEqualTo("agent.middleware.cahce");
			assertThat(failure.getAction()).startsWith("Did you mean 'cache'? Keys under 'agent.middleware': ")
				.contains("crash-recovery", "fail-on-unknown-tool", "rate-limit");
		});
	}

	@Test
	void theKeysOfAFeatureThatIsNotConfiguredAreStillKnown() {
		// No retry auto-configuration runs here: the key is known from the configuration
		// metadata.
		this.contextRunner
			.withPropertyValues("agent.middleware.retry.enabled=false",
					"agent.middleware.retry.defaults.max-attempts=5")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void theKeyOfAnotherFeaturesPropertiesBeanIsKnown() {
		this.contextRunner.withPropertyValues("agent.middleware.widget.max-items=3")
			.run((context) -> assertThat(failure(context).getProperty()).isEqualTo("agent.middleware.widget"));
		this.contextRunner.withUserConfiguration(WidgetConfiguration.class)
			.withPropertyValues("agent.middleware.widget.max-items=3")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void environmentVariablesAreMatchedWhateverTheirUnderscoresSplit() {
		this.contextRunner
			.withInitializer(environmentVariables(Map.of("AGENT_MIDDLEWARE_RATE_LIMIT_ENABLED", "false",
					"AGENT_MIDDLEWARE_FAIL_ON_UNKNOWN_TOOL", "true")))
			.run((context) -> assertThat(context).hasNotFailed());
		this.contextRunner.withInitializer(environmentVariables(Map.of("AGENT_MIDDLEWARE_CAHCE_ENABLED", "false")))
			.run((context) -> assertThat(failure(context).getProperty()).isEqualTo("agent.middleware.cahce"));
	}

	private static ApplicationContextInitializer<ConfigurableApplicationContext> environmentVariables(
			Map<String, Object> variables) {
		return (context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					variables));
	}

	private static InvalidToolConfigurationException failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
		assertThat(cause).isInstanceOf(InvalidToolConfigurationException.class);
		return (InvalidToolConfigurationException) cause;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(WidgetProperties.class)
	static class WidgetConfiguration {

	}

	@ConfigurationProperties("agent.middleware.widget")
	static class WidgetProperties {

		private int maxItems = 10;

		public int getMaxItems() {
			return this.maxItems;
		}

		public void setMaxItems(int maxItems) {
			this.maxItems = maxItems;
		}

	}

}
