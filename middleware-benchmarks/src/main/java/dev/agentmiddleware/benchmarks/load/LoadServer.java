package dev.agentmiddleware.benchmarks.load;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.benchmarks.BenchmarkTools;
import dev.agentmiddleware.logging.LoggingMiddleware;
import io.modelcontextprotocol.server.McpServerFeatures;

import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.ai.tool.support.ToolDefinitions;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ReflectionUtils;

/**
 * One MCP server of the load comparison, started as a process of its own by
 * {@link LoadDriver} with the benchmarks' class path, serving {@code echo(String)} and
 * {@code plan_trip(Trip)} of {@link BenchmarkTools} over Streamable HTTP on
 * {@code http://127.0.0.1:<port>/mcp}.
 * <ul>
 * <li>{@code governed}: our starter's MCP server (hardened transport, edge checks,
 * session registry) with the tools as {@code @AgentTool} methods behind the default stack
 * of {@code BenchmarkContexts} (observation, logging with its logger off, the session
 * cache, retry, a rate limit that is never reached, the audit trail), every store in
 * memory. Further {@code --property=value} arguments choose other stores (the driver
 * passes PostgreSQL's and Redis's).</li>
 * <li>{@code ungoverned}: Spring AI's own MCP server (its Streamable HTTP transport for
 * Spring MVC) publishing the same methods through {@code MethodToolCallback} and
 * {@code McpToolUtils}, with every auto-configuration of ours left out: what an
 * application without the middleware runs.</li>
 * </ul>
 * Neither has Spring Security: its auto-configurations are left out (the sample on the
 * class path brings it), as on a loopback server of an application without it; a resource
 * server's token check is not measured here. Both run with Actuator and its metrics on
 * the class path, the root logger at WARN, an embedded H2 {@code DataSource} unless told
 * otherwise, and no {@code application.yml} (the sample's is on the class path).
 */
public final class LoadServer {

	private static final String AUTO_CONFIGURATIONS = "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";

	private LoadServer() {
	}

	private static final String REDIS_AUTO_CONFIGURATIONS = "org.springframework.boot.data.redis.";

	/**
	 * Starts a server.
	 * @param args {@code governed} or {@code ungoverned}, the port, then Spring Boot
	 * arguments
	 * @throws IOException if the list of our auto-configurations cannot be read
	 */
	public static void main(String[] args) throws IOException {
		String variant = args[0];
		int port = Integer.parseInt(args[1]);
		Map<String, String> properties = new LinkedHashMap<>();
		// Not the sample's application.yml, which the benchmarks' class path carries too
		properties.put("spring.config.name", "load-server");
		properties.put("server.port", Integer.toString(port));
		properties.put("server.address", "127.0.0.1");
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.root", "WARN");
		properties.put("spring.datasource.url", "jdbc:h2:mem:load-" + variant);
		properties.put("spring.ai.mcp.server.name", "load-" + variant);
		properties.put("spring.ai.mcp.server.version", "1.0.0");
		properties.put("spring.ai.mcp.server.type", "SYNC");
		properties.put("spring.ai.mcp.server.protocol", "STREAMABLE");
		properties.put("spring.ai.mcp.server.annotation-scanner.enabled", "false");
		Class<?> application;
		if ("governed".equals(variant)) {
			application = GovernedServer.class;
			properties.put("agent.middleware.mcp.security.allow-anonymous", "true");
			properties.put("agent.middleware.rate-limit.defaults.enabled", "true");
			properties.put("agent.middleware.rate-limit.defaults.limit-for-period", "1000000");
			properties.put("agent.middleware.rate-limit.defaults.limit-refresh-period", "1s");
			properties.put("agent.middleware.cache.defaults.max-size", "1000");
			// Every store in memory unless an argument says otherwise: the embedded H2 of
			// the process would otherwise take the stores that choose JDBC by default,
			// and
			// an audit record inserted into an in-process database puts the database's
			// own
			// work on the server's CPU (about 100 µs per call under load, run 6 of the
			// README), which a server writing to its database elsewhere does not pay
			for (String store : List.of("audit", "approval", "threads", "cache")) {
				properties.put("agent.middleware." + store + ".store.type", "memory");
			}
			properties.put("logging.level." + LoggingMiddleware.DEFAULT_LOGGER_NAME, "OFF");
			properties.put("logging.level.dev.agentmiddleware.autoconfigure.mcp", "ERROR");
			// Spring Data Redis only for the server whose rate limits are in Redis
			boolean redis = Arrays.asList(args).contains("--agent.middleware.rate-limit.store.type=redis");
			properties.put("spring.autoconfigure.exclude", redis
					? excludedAutoConfigurations("org.springframework.boot.security.")
					: excludedAutoConfigurations("org.springframework.boot.security.", REDIS_AUTO_CONFIGURATIONS));
		}
		else if ("ungoverned".equals(variant)) {
			application = UngovernedServer.class;
			properties.put("agent.middleware.mcp.transport.enabled", "false");
			properties.put("spring.ai.mcp.server.tool-callback-converter", "false");
			properties.put("spring.autoconfigure.exclude", excludedAutoConfigurations(
					"org.springframework.boot.security.", "dev.agentmiddleware.", REDIS_AUTO_CONFIGURATIONS));
		}
		else {
			throw new IllegalArgumentException("Unknown server " + variant + ": governed or ungoverned");
		}
		for (String arg : Arrays.asList(args).subList(2, args.length)) {
			int equals = arg.indexOf('=');
			if (!arg.startsWith("--") || equals < 0) {
				throw new IllegalArgumentException("Expected --property=value, got " + arg);
			}
			properties.put(arg.substring(2, equals), arg.substring(equals + 1));
		}
		List<String> arguments = new ArrayList<>();
		properties.forEach((name, value) -> arguments.add("--" + name + "=" + value));
		SpringApplication.run(application, arguments.toArray(String[]::new));
		System.out.println("LoadServer " + variant + " ready on port " + port);
	}

	// The auto-configurations whose names start with one of the prefixes
	private static String excludedAutoConfigurations(String... prefixes) throws IOException {
		List<String> excluded = new ArrayList<>();
		for (var resources = LoadServer.class.getClassLoader().getResources(AUTO_CONFIGURATIONS); resources
			.hasMoreElements();) {
			try (InputStream in = resources.nextElement().openStream()) {
				new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
					.map(String::trim)
					.filter((line) -> Arrays.stream(prefixes).anyMatch(line::startsWith))
					.forEach(excluded::add);
			}
		}
		return String.join(",", excluded);
	}

	/**
	 * The governed server: the benchmark tools as {@code @AgentTool} beans, everything
	 * else auto-configured.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class GovernedServer {

		@Bean
		BenchmarkTools benchmarkTools() {
			return new BenchmarkTools();
		}

	}

	/**
	 * Spring AI's MCP server publishing the same methods, under the same names, without
	 * the chain.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class UngovernedServer {

		@Bean
		List<McpServerFeatures.SyncToolSpecification> benchmarkToolSpecifications() {
			BenchmarkTools tools = new BenchmarkTools();
			return List.of(specification(tools, "echo", "echo", String.class),
					specification(tools, "planTrip", "plan_trip", BenchmarkTools.Trip.class));
		}

		private static McpServerFeatures.SyncToolSpecification specification(BenchmarkTools tools, String methodName,
				String toolName, Class<?> parameterType) {
			Method method = ReflectionUtils.findMethod(BenchmarkTools.class, methodName, parameterType);
			ToolDefinition definition = ToolDefinitions.from(method);
			MethodToolCallback callback = MethodToolCallback.builder()
				.toolDefinition(ToolDefinition.builder()
					.name(toolName)
					.description(definition.description())
					.inputSchema(definition.inputSchema())
					.build())
				.toolMethod(method)
				.toolObject(tools)
				.build();
			return McpToolUtils.toSyncToolSpecification(callback);
		}

	}

}
