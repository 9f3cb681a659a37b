package dev.agentmiddleware.autoconfigure.mcp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class McpAnnotationScannerCheckTests {

	private static final String WARNING = "declare Spring AI MCP annotations";

	// As in an application: our MCP defaults in the environment, then the check.
	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer((context) -> new McpServerDefaultsEnvironmentPostProcessor()
			.postProcessEnvironment(context.getEnvironment(), new SpringApplication()))
		.withUserConfiguration(CheckConfiguration.class);

	@Test
	void beansWithMcpAnnotationsGetOneWarningNamingThePropertyWhenOurDefaultTurnedTheScannerOff(CapturedOutput output) {
		this.contextRunner.withBean("prompts", Prompts.class, Prompts::new).run((context) -> {
		});
		assertThat(output).containsOnlyOnce(WARNING)
			.contains("Beans [prompts] " + WARNING)
			.contains("Set spring.ai.mcp.server.annotation-scanner.enabled=true to publish them");
	}

	@Test
	void aFreshApplicationWithoutMcpAnnotationsGetsNoWarning(CapturedOutput output) {
		this.contextRunner.withBean("plain", Object.class, Object::new).run((context) -> {
		});
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void anApplicationThatSetThePropertyItselfGetsNoWarning(CapturedOutput output) {
		this.contextRunner.withBean("prompts", Prompts.class, Prompts::new)
			.withPropertyValues("spring.ai.mcp.server.annotation-scanner.enabled=false")
			.run((context) -> {
			});
		assertThat(output).doesNotContain(WARNING);
	}

	@Configuration(proxyBeanMethods = false)
	static class CheckConfiguration {

		@Bean
		McpAnnotationScannerCheck mcpAnnotationScannerCheck(ConfigurableListableBeanFactory beanFactory,
				ConfigurableEnvironment environment) {
			return new McpAnnotationScannerCheck(beanFactory, environment);
		}

	}

	static class Prompts {

		@McpPrompt(name = "greeting", description = "A greeting")
		public String greeting() {
			return "Hello";
		}

	}

}
