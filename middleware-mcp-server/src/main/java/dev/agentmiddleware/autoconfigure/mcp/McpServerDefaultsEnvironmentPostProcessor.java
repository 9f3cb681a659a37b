package dev.agentmiddleware.autoconfigure.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Makes an application with Spring AI's MCP server on the classpath serve MCP the way a
 * new user expects: Streamable HTTP on {@code /mcp}, with the tools published by our
 * auto-configuration (which governs Spring AI tool callbacks too) rather than by Spring
 * AI's tool-callback converter, and without Spring AI's MCP annotation scanner
 * ({@code @McpTool}, {@code @McpResource}, {@code @McpPrompt}, {@code @McpComplete}; its
 * tools would bypass the chain, and on an application without such annotations it only
 * logs warnings), which an application that uses those annotations turns back on with
 * {@value #ANNOTATION_SCANNER_ENABLED}{@code =true} ({@link McpAnnotationScannerCheck}
 * says so at startup), and without the MCP SDK's INFO line of every {@code initialize},
 * which logs the client's own texts verbatim (its loggers at WARN unless the application
 * sets their level or that of a package above them; the transport logs an escaped line at
 * DEBUG). Added as the last property source, so that any setting of the application wins.
 */
final class McpServerDefaultsEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** The name of the property source holding the defaults. */
	public static final String PROPERTY_SOURCE_NAME = "agentMiddlewareMcpDefaults";

	/** Spring AI's switch of its MCP annotation scanner, off by default here. */
	static final String ANNOTATION_SCANNER_ENABLED = "spring.ai.mcp.server.annotation-scanner.enabled";

	/**
	 * The MCP SDK's loggers of the {@code initialize} INFO line, set to WARN unless the
	 * application sets them.
	 */
	static final List<String> SDK_INITIALIZE_LOGGERS = List.of("io.modelcontextprotocol.server.McpAsyncServer",
			"io.modelcontextprotocol.server.McpStatelessAsyncServer");

	private static final String LOGGING_LEVEL = "logging.level.";

	private static final String MCP_SERVER_AUTO_CONFIGURATION = "org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!ClassUtils.isPresent(MCP_SERVER_AUTO_CONFIGURATION, application.getClassLoader())
				|| environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			return;
		}
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put("spring.ai.mcp.server.protocol", "STREAMABLE");
		// Our tool specifications serve the synchronous, stateful servers; others keep
		// Spring AI's converter
		String protocol = environment.getProperty("spring.ai.mcp.server.protocol", "STREAMABLE");
		String type = environment.getProperty("spring.ai.mcp.server.type", "SYNC");
		if (!"STATELESS".equalsIgnoreCase(protocol) && "SYNC".equalsIgnoreCase(type)) {
			defaults.put("spring.ai.mcp.server.tool-callback-converter", "false");
			// Spring AI's annotation scanner publishes @McpTool methods outside our
			// chain, and on an application
			// without MCP annotations logs four WARN lines nobody can act on;
			// McpAnnotationScannerCheck says when
			// an application has annotated beans it would publish.
			defaults.put(ANNOTATION_SCANNER_ENABLED, "false");
		}
		// The MCP SDK logs every initialize at INFO with the client's texts as they came
		// (a name may carry newlines
		// and escape sequences, forging log lines); the transport logs its own escaped
		// line at DEBUG instead
		for (String logger : SDK_INITIALIZE_LOGGERS) {
			if (!isLevelSet(environment, logger)) {
				defaults.put(LOGGING_LEVEL + logger, "WARN");
			}
		}
		environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, defaults));
	}

	// Whether the application set the level of the logger or of a logger above it in the
	// SDK's packages
	private static boolean isLevelSet(ConfigurableEnvironment environment, String logger) {
		for (int end = logger.indexOf('.'); end != -1; end = logger.indexOf('.', end + 1)) {
			if (environment.containsProperty(LOGGING_LEVEL + logger.substring(0, end))) {
				return true;
			}
		}
		return environment.containsProperty(LOGGING_LEVEL + logger);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
