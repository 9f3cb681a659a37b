package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class McpServerDefaultsEnvironmentPostProcessorTests {

	private final McpServerDefaultsEnvironmentPostProcessor postProcessor = new McpServerDefaultsEnvironmentPostProcessor();

	@Test
	void defaultsToStreamableHttpWithOurToolSpecifications() {
		StandardEnvironment environment = new StandardEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.ai.mcp.server.protocol")).isEqualTo("STREAMABLE");
		assertThat(environment.getProperty("spring.ai.mcp.server.tool-callback-converter")).isEqualTo("false");
		assertThat(environment.getProperty("spring.ai.mcp.server.annotation-scanner.enabled")).isEqualTo("false");
		assertThat(environment.getPropertySources().stream().reduce((first, last) -> last).orElseThrow().getName())
			.isEqualTo(McpServerDefaultsEnvironmentPostProcessor.PROPERTY_SOURCE_NAME);
	}

	@Test
	void applicationSettingsWin() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("application", Map.of("spring.ai.mcp.server.protocol", "SSE")));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.ai.mcp.server.protocol")).isEqualTo("SSE");
	}

	@Test
	void quietsTheSdksInitializeLineThatLogsTheClientsTexts() {
		StandardEnvironment environment = new StandardEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("logging.level.io.modelcontextprotocol.server.McpAsyncServer"))
			.isEqualTo("WARN");
		assertThat(environment.getProperty("logging.level.io.modelcontextprotocol.server.McpStatelessAsyncServer"))
			.isEqualTo("WARN");
	}

	@Test
	void leavesTheSdksLoggersToAnApplicationThatSetsTheirLevelOrAPackageAbove() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("application", Map.of("logging.level.io.modelcontextprotocol", "DEBUG",
					"logging.level.io.modelcontextprotocol.server.McpAsyncServer", "INFO")));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("logging.level.io.modelcontextprotocol.server.McpAsyncServer"))
			.isEqualTo("INFO");
		assertThat(environment.getProperty("logging.level.io.modelcontextprotocol.server.McpStatelessAsyncServer"))
			.as("not set: the package's DEBUG applies")
			.isNull();
	}

	@Test
	void statelessServersKeepSpringAisConverter() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("application", Map.of("spring.ai.mcp.server.protocol", "STATELESS")));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.ai.mcp.server.tool-callback-converter")).isNull();
		assertThat(environment.getProperty("spring.ai.mcp.server.annotation-scanner.enabled"))
			.as("stateless servers publish no tools of ours: Spring AI's scanner stays")
			.isNull();
	}

}
