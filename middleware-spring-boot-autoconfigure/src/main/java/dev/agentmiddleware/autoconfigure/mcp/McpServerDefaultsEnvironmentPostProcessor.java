package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Makes an application with Spring AI's MCP server on the classpath serve MCP the way a new user expects: Streamable
 * HTTP on {@code /mcp}, with the tools published by our auto-configuration (which governs Spring AI tool callbacks
 * too) rather than by Spring AI's tool-callback converter. Added as the last property source, so that any setting
 * of the application wins.
 */
public final class McpServerDefaultsEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** The name of the property source holding the defaults. */
	public static final String PROPERTY_SOURCE_NAME = "agentMiddlewareMcpDefaults";

	private static final String MCP_SERVER_AUTO_CONFIGURATION = "org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration";

	private static final Map<String, Object> DEFAULTS = Map.of("spring.ai.mcp.server.protocol", "STREAMABLE",
			"spring.ai.mcp.server.tool-callback-converter", "false");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!ClassUtils.isPresent(MCP_SERVER_AUTO_CONFIGURATION, application.getClassLoader())
				|| environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			return;
		}
		environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, DEFAULTS));
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
