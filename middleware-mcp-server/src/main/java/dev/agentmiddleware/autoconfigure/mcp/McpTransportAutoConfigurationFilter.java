package dev.agentmiddleware.autoconfigure.mcp;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Leaves out Spring AI's Streamable HTTP auto-configuration for Spring MVC when our
 * hardened transport replaces it ({@code agent.middleware.mcp.transport.enabled}, on by
 * default), so that exactly one transport serves the endpoint. Both are active under the
 * same conditions.
 */
final class McpTransportAutoConfigurationFilter implements AutoConfigurationImportFilter, EnvironmentAware {

	static final String SPRING_AI_TRANSPORT = "org.springframework.ai.mcp.server.webmvc.autoconfigure.McpServerStreamableHttpWebMvcAutoConfiguration";

	private static final String ENABLED = McpProperties.PREFIX + ".transport.enabled";

	private boolean replacing = true;

	@Override
	public void setEnvironment(Environment environment) {
		this.replacing = environment.getProperty(ENABLED, Boolean.class, true);
	}

	@Override
	public boolean[] match(String[] autoConfigurationClasses, AutoConfigurationMetadata autoConfigurationMetadata) {
		boolean[] matches = new boolean[autoConfigurationClasses.length];
		for (int i = 0; i < autoConfigurationClasses.length; i++) {
			matches[i] = !(this.replacing && SPRING_AI_TRANSPORT.equals(autoConfigurationClasses[i]));
		}
		return matches;
	}

}
