package dev.agentmiddleware.autoconfigure.mcp;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.authorization.AuthorizationRulesMiddleware;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import dev.agentmiddleware.autoconfigure.agent.TodoProperties;
import dev.agentmiddleware.autoconfigure.authorization.AuthorizedTools;
import dev.agentmiddleware.autoconfigure.edge.HostOriginGuard;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.GovernedToolCallback;
import dev.agentmiddleware.autoconfigure.springai.ToolErrorFormatter;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.autoconfigure.tool.ToolNameReferences;
import dev.agentmiddleware.todo.TodoMiddleware;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.InvocationSource;
import io.micrometer.observation.ObservationRegistry;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.mcp.AsyncMcpToolCallback;
import org.springframework.ai.mcp.AsyncMcpToolCallbackProvider;
import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.ai.mcp.SyncMcpToolCallback;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration;
import org.springframework.ai.mcp.server.common.autoconfigure.McpServerStdioDisabledCondition;
import org.springframework.ai.mcp.server.common.autoconfigure.ToolCallbackConverterAutoConfiguration;
import org.springframework.ai.mcp.server.common.autoconfigure.properties.McpServerProperties;
import org.springframework.ai.mcp.server.common.autoconfigure.properties.McpServerStreamableHttpProperties;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.MimeType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Auto-configuration of the MCP server side, active whenever Spring AI's MCP server runs
 * (synchronous API):
 * <ul>
 * <li>every {@code @AgentTool} (and every tool an agent middleware contributes, except
 * the todo tools unless {@code agent.middleware.todo.mcp.enabled}) published as an MCP
 * tool specification with title, annotations, output schema and icons
 * ({@code @AgentTool(icons)}, replaced by
 * {@code agent.middleware.mcp.tools.<tool-name>.icons}), its arguments bound inside the
 * chain ({@link McpToolHandler});</li>
 * <li>Spring AI tool callbacks that the server publishes (a {@code ToolCallbackProvider}
 * of {@code @Tool} beans) run through the chain too
 * ({@code agent.middleware.mcp.govern-spring-ai-tools});</li>
 * <li>{@code initialize} advertising resources, prompts and completions only when the
 * application serves them ({@link McpServedCapabilitiesBuilder});</li>
 * <li>the {@link HardenedStreamableHttpTransport} in place of Spring AI's Streamable HTTP
 * transport for Spring MVC ({@code agent.middleware.mcp.transport.*}), whose
 * {@code tools/list} shows each caller only the tools it may call
 * ({@link McpToolVisibility}).</li>
 * </ul>
 * The SDK's own check of tool arguments against the input schema is switched off: our
 * binder checks them inside the chain, so a refused call is observed, and the MCP and
 * {@code ChatClient} paths accept the same arguments.
 */
@AutoConfiguration(after = AgentToolSpringAiAutoConfiguration.class,
		before = { McpServerAutoConfiguration.class, ToolCallbackConverterAutoConfiguration.class },
		beforeName = McpTransportAutoConfigurationFilter.SPRING_AI_TRANSPORT)
@ConditionalOnClass({ McpSchema.class, McpServerAutoConfiguration.class, McpToolUtils.class })
@ConditionalOnProperty(prefix = McpServerProperties.CONFIG_PREFIX, name = "enabled", havingValue = "true",
		matchIfMissing = true)
@EnableConfigurationProperties({ McpProperties.class, McpServerProperties.class })
public final class AgentMcpServerAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(AgentMcpServerAutoConfiguration.class);

	@Bean
	static McpSyncServerCustomizerPostProcessor agentMcpSyncServerCustomizerPostProcessor() {
		return new McpSyncServerCustomizerPostProcessor();
	}

	@Bean
	@ConditionalOnBean(AgentToolRegistry.class)
	@ConditionalOnProperty(prefix = McpServerProperties.CONFIG_PREFIX, name = "type", havingValue = "SYNC",
			matchIfMissing = true)
	List<McpServerFeatures.SyncToolSpecification> agentMcpToolSpecifications(AgentToolRegistry registry,
			ToolErrorFormatter errorFormatter, ObjectProvider<JsonMapper> jsonMapper, McpProperties properties,
			McpServerProperties serverProperties, ObjectProvider<ToolCallback> toolCallbacks,
			ObjectProvider<List<ToolCallback>> toolCallbackLists, ObjectProvider<ToolCallbackProvider> providers,
			ObjectProvider<TodoProperties> todoProperties, ObjectProvider<TodoMiddleware> todo,
			ObjectProvider<ObservationRegistry> observationRegistry) {
		JsonMapper mapper = jsonMapper.getIfAvailable(JsonMapper::new);
		List<ToolCallback> springAiTools = springAiTools(serverProperties, toolCallbacks, toolCallbackLists, providers);
		List<McpServerFeatures.SyncToolSpecification> ungoverned = new ArrayList<>();
		for (ToolCallback callback : springAiTools) {
			if (properties.isGovernSpringAiTools()) {
				// Registers the tool, with its own pipeline, beside the @AgentTools; a
				// name clash fails startup
				GovernedToolCallback.govern(callback, registry, errorFormatter);
			}
			else if (!GovernedToolCallback.isGoverned(callback)) {
				String mimeType = serverProperties.getToolResponseMimeType().get(callback.getToolDefinition().name());
				ungoverned.add(McpToolUtils.toSyncToolSpecification(callback,
						(mimeType != null) ? MimeType.valueOf(mimeType) : null));
			}
		}
		Map<String, McpServerFeatures.SyncToolSpecification> specifications = new LinkedHashMap<>();
		List<ExecutableTool> unpublished = todoProperties.getIfAvailable(TodoProperties::new).getMcp().isEnabled()
				? List.of() : todo.stream().flatMap((middleware) -> middleware.tools().stream()).toList();
		for (RegisteredTool tool : registry.tools()) {
			if (unpublished.contains(tool.executable())) {
				continue;
			}
			specifications.put(tool.name(),
					new McpToolHandler(tool, errorFormatter, mapper, McpToolIcons.of(tool, properties),
							properties.getProgressInterval(),
							observationRegistry.getIfAvailable(() -> ObservationRegistry.NOOP))
						.specification());
		}
		Set<String> ungovernedNames = new LinkedHashSet<>();
		for (McpServerFeatures.SyncToolSpecification specification : ungoverned) {
			String name = specification.tool().name();
			if (specifications.putIfAbsent(name, specification) == null) {
				ungovernedNames.add(name);
			}
			else {
				logger.warn("Spring AI tool '{}' is not published over MCP: a governed tool has the same name", name);
			}
		}
		if (!ungovernedNames.isEmpty()) {
			logger.warn(
					"MCP tools published without the middleware chain ({}=false): {}. Their calls are not "
							+ "observed, logged, approved, cached or rate limited.",
					McpProperties.PREFIX + ".govern-spring-ai-tools", String.join(", ", ungovernedNames));
		}
		return List.copyOf(specifications.values());
	}

	@Bean
	@ConditionalOnMissingBean
	McpSchema.ServerCapabilities.Builder mcpServedCapabilitiesBuilder(ListableBeanFactory beanFactory,
			Environment environment, McpProperties properties) {
		// Replaces Spring AI's capabilitiesBuilder: resources, prompts and completions
		// only when served, resource
		// subscriptions when switched on
		return new McpServedCapabilitiesBuilder(beanFactory, environment, properties.getResources().isSubscribe());
	}

	@Bean
	@ConditionalOnMissingBean
	McpResourceUpdates mcpResourceUpdates(ObjectProvider<McpSyncServer> syncServer,
			ObjectProvider<McpAsyncServer> asyncServer, ObjectProvider<HardenedStreamableHttpTransport> transport) {
		return new McpResourceUpdates(syncServer, asyncServer, transport);
	}

	@Bean
	McpFeatureRequests agentMcpFeatureRequests(ListableBeanFactory beanFactory) {
		return McpFeatureRequests.of(beanFactory);
	}

	@Bean
	static McpFeatureSpecificationsPostProcessor agentMcpFeatureSpecificationsPostProcessor(
			ObjectProvider<McpFeatureRequests> requests) {
		return new McpFeatureSpecificationsPostProcessor(requests);
	}

	@Bean
	ToolNameReferences mcpToolNameReferences(McpProperties properties) {
		return ToolNameReferences.of(McpProperties.PREFIX + ".tools", properties.getTools().keySet());
	}

	@Bean
	McpAnnotationScannerCheck agentMcpAnnotationScannerCheck(ConfigurableListableBeanFactory beanFactory,
			ConfigurableEnvironment environment) {
		return new McpAnnotationScannerCheck(beanFactory, environment);
	}

	@Bean
	@ConditionalOnBean(AgentToolRegistry.class)
	@ConditionalOnMissingBean
	McpToolVisibility mcpToolVisibility(ObjectProvider<AgentToolRegistry> registry,
			ObjectProvider<AuthorizationMiddleware> authorization,
			ObjectProvider<AuthorizationRulesMiddleware> authorizationRules) {
		// The rule that refuses a caller's calls also hides the tools from its list, as
		// on the ChatClient path
		return new AuthorizedTools(registry::getObject, authorization::getIfAvailable,
				authorizationRules::getIfAvailable, InvocationSource.MCP)::permits;
	}

	@Bean
	@ConditionalOnBean(AgentToolRegistry.class)
	static SmartInitializingSingleton agentMcpUngovernedToolSpecificationsReporter(
			ObjectProvider<ListableBeanFactory> beanFactory) {
		return () -> reportUngovernedToolSpecifications(beanFactory.getObject());
	}

	// Tool specifications published by other means (Spring AI's @McpTool annotation
	// scanner, a user's own list)
	// reach the MCP server without our chain: say so, naming them.
	private static void reportUngovernedToolSpecifications(ListableBeanFactory beanFactory) {
		ResolvableType type = ResolvableType.forClassWithGenerics(List.class,
				McpServerFeatures.SyncToolSpecification.class);
		Set<String> ungoverned = new LinkedHashSet<>();
		for (String name : beanFactory.getBeanNamesForType(type, false, false)) {
			if (!"agentMcpToolSpecifications".equals(name)) {
				for (Object specification : beanFactory.getBean(name, List.class)) {
					ungoverned.add(((McpServerFeatures.SyncToolSpecification) specification).tool().name());
				}
			}
		}
		if (!ungoverned.isEmpty()) {
			logger.warn("MCP tools published without the middleware chain (MCP tool specifications not built from "
					+ "@AgentTool or ToolCallback beans): {}", String.join(", ", ungoverned));
		}
	}

	private static List<ToolCallback> springAiTools(McpServerProperties serverProperties,
			ObjectProvider<ToolCallback> toolCallbacks, ObjectProvider<List<ToolCallback>> toolCallbackLists,
			ObjectProvider<ToolCallbackProvider> providers) {
		boolean exposeClientTools = serverProperties.isExposeMcpClientTools();
		List<ToolCallback> callbacks = new ArrayList<>();
		toolCallbacks.orderedStream().forEach(callbacks::add);
		toolCallbackLists.orderedStream().forEach(callbacks::addAll);
		providers.orderedStream()
			.filter((provider) -> !(provider instanceof AgentToolCallbackProvider))
			.filter((provider) -> exposeClientTools || !(provider instanceof SyncMcpToolCallbackProvider
					|| provider instanceof AsyncMcpToolCallbackProvider))
			.distinct()
			.forEach((provider) -> callbacks.addAll(List.of(provider.getToolCallbacks())));
		callbacks.removeIf((callback) -> !exposeClientTools
				&& (callback instanceof SyncMcpToolCallback || callback instanceof AsyncMcpToolCallback));
		return callbacks;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RouterFunction.class)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnBooleanProperty(name = McpProperties.PREFIX + ".transport.enabled", matchIfMissing = true)
	@Conditional({ McpServerStdioDisabledCondition.class,
			McpServerAutoConfiguration.EnabledStreamableServerCondition.class })
	@EnableConfigurationProperties(McpServerStreamableHttpProperties.class)
	static class HardenedTransportConfiguration {

		@Bean
		@ConditionalOnMissingBean
		HardenedStreamableHttpTransport hardenedStreamableHttpTransport(
				@Qualifier("mcpServerJsonMapper") JsonMapper mcpServerJsonMapper,
				McpServerStreamableHttpProperties streamableProperties, McpProperties properties,
				ObjectProvider<HostOriginGuard> edgeGuard, ObjectProvider<McpTransportClock> clock,
				ObjectProvider<McpToolVisibility> toolVisibility, ObjectProvider<DataSource> dataSource,
				ListableBeanFactory beanFactory, McpServerProperties serverProperties,
				ObjectProvider<AgentToolRegistry> toolRegistry, ObjectProvider<McpSyncServer> syncServer,
				ObjectProvider<McpAsyncServer> asyncServer) {
			HostOriginGuard guard = edgeGuard.getIfAvailable(HostOriginGuard::local);
			McpProperties.Transport transport = properties.getTransport();
			HardenedStreamableHttpTransportBuilder builder = HardenedStreamableHttpTransport
				.builder(new JacksonMcpJsonMapper(mcpServerJsonMapper))
				.endpoint(streamableProperties.getMcpEndpoint())
				.allowedOrigins(guard.allowedOrigins())
				.allowedHosts(guard.allowedHosts())
				.maxRequestBytes(transport.getMaxRequestSize().toBytes())
				.sessionIdleTimeout(transport.getSessionIdleTimeout())
				.maxSessions(transport.getMaxSessions())
				.sseRetry(transport.getSseRetry())
				.primingHold(transport.getPrimingHold())
				// 2026-07-28 requests are served from what Spring AI's MCP server is
				// given, as far as it still serves it
				.catalog(
						() -> StatelessMcpLiveCatalog.of(
								StatelessMcpCatalog.of(beanFactory,
										new McpSchema.Implementation(serverProperties.getName(),
												serverProperties.getVersion()),
										serverProperties.getInstructions()),
								mcpServer(syncServer, asyncServer)))
				.notifiedCapabilities(() -> {
					McpAsyncServer server = mcpServer(syncServer, asyncServer);
					return (server != null) ? server.getServerCapabilities() : null;
				});
			clock.ifAvailable((source) -> builder.clock(source.clock()));
			toolVisibility.ifAvailable(builder::toolVisibility);
			DataSource sessionStore = sessionStore(properties.getSessions().getStore().getType(),
					dataSource.getIfUnique());
			if (sessionStore != null) {
				builder.sessionStore(sessionStore);
			}
			McpProperties.Tasks tasks = properties.getTasks();
			builder.tasks(McpToolTaskSupport.of(toolRegistry), tasks.getTtl(), tasks.getPollInterval(),
					taskStore(tasks.getStore().getType(), dataSource.getIfUnique()));
			builder
				.requestStateKey(requestStateKey(properties.getRequestState().getSecret(), sessionStore != null,
						properties.getRequestState().getValidity()))
				.requestStateValidity(properties.getRequestState().getValidity())
				.approvalRound(properties.getInputRequired().getApprovalRound());
			if (streamableProperties.getKeepAliveInterval() != null) {
				builder.keepAliveInterval(streamableProperties.getKeepAliveInterval());
			}
			return builder.build();
		}

		private static @Nullable McpAsyncServer mcpServer(ObjectProvider<McpSyncServer> syncServer,
				ObjectProvider<McpAsyncServer> asyncServer) {
			McpSyncServer sync = syncServer.getIfUnique();
			return (sync != null) ? sync.getAsyncServer() : asyncServer.getIfUnique();
		}

		// memory: per instance; jdbc: the DataSource (failing startup without one); auto:
		// the DataSource only when
		// it is PostgreSQL, the database a cluster shares (an embedded H2 serves one
		// instance: memory is enough)
		private static @Nullable DataSource sessionStore(StoreType type, @Nullable DataSource dataSource) {
			@Nullable DataSource store = jdbcStore(McpProperties.PREFIX + ".sessions", "MCP session", type, dataSource);
			if (store == null) {
				logger.info("MCP sessions are kept in memory: each instance knows only the sessions it started");
			}
			else {
				logger.info("MCP sessions are kept in the database (table {}): every instance accepts them",
						JdbcMcpSessionRegistry.TABLE);
			}
			return store;
		}

		private static @Nullable DataSource taskStore(StoreType type, @Nullable DataSource dataSource) {
			@Nullable DataSource store = jdbcStore(McpProperties.PREFIX + ".tasks", "MCP task", type, dataSource);
			if (store != null) {
				logger.info("MCP tasks are kept in the database (table {}): every instance answers them",
						JdbcMcpTaskStore.TABLE);
			}
			return store;
		}

		// The DataSource of a store of the MCP server (memory, jdbc, or auto: the
		// DataSource only when it is PostgreSQL), or null for memory; jdbc without a
		// DataSource or without spring-jdbc fails naming the property
		private static @Nullable DataSource jdbcStore(String prefix, String what, StoreType type,
				@Nullable DataSource dataSource) {
			if (type == StoreType.MEMORY
					|| (type == StoreType.AUTO && (dataSource == null || !isPostgres(dataSource)))) {
				return null;
			}
			if (dataSource == null) {
				throw StoreType.missingDataSource(prefix, what);
			}
			if (!ClassUtils.isPresent("org.springframework.jdbc.core.JdbcTemplate",
					AgentMcpServerAutoConfiguration.class.getClassLoader())) {
				throw new InvalidToolConfigurationException(prefix + ".store.type",
						"the JDBC " + what + " store needs spring-jdbc, and it is not on the classpath",
						"Add spring-boot-starter-jdbc, or set '" + prefix + ".store.type' to auto or memory.");
			}
			return dataSource;
		}

		// The configured key that seals 2026-07-28 requestStates; without one, a random
		// key per start, which several instances cannot share: a JDBC session store
		// (several instances) fails startup; a configured key with the sessions in memory
		// checks single use per instance, and says so
		private static byte[] requestStateKey(@Nullable String secret, boolean sharedSessions, Duration validity) {
			String property = McpProperties.PREFIX + ".request-state.secret";
			if (secret == null || secret.isBlank()) {
				if (sharedSessions) {
					throw new InvalidToolConfigurationException(property,
							"MCP sessions are shared in the database (several instances), but no key seals the "
									+ "requestState of 2026-07-28 input_required answers, so a retry on another "
									+ "instance would be refused",
							"Set '" + property + "' to the same base64 key of at least "
									+ McpRequestStates.MIN_KEY_BYTES
									+ " random bytes on every instance (e.g. openssl rand -base64 32).");
				}
				// One instance (sessions in memory): a key of its own is right, so no
				// warning;
				// several instances fail above
				logger.info("The requestState of MCP 2026-07-28 input_required answers is sealed with a random key of "
						+ "this start (no {}): a retry must reach this instance before it restarts; several "
						+ "instances need the same key configured", property);
				return McpRequestStates.randomKey();
			}
			byte[] key;
			try {
				key = Base64.getDecoder().decode(secret.trim());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidToolConfigurationException(property, "the key is not valid base64",
						"Set it to base64 of at least " + McpRequestStates.MIN_KEY_BYTES
								+ " random bytes (e.g. openssl rand -base64 32).");
			}
			if (key.length < McpRequestStates.MIN_KEY_BYTES) {
				throw new InvalidToolConfigurationException(property,
						"the key has " + key.length + " bytes, fewer than " + McpRequestStates.MIN_KEY_BYTES,
						"Set it to base64 of at least " + McpRequestStates.MIN_KEY_BYTES
								+ " random bytes (e.g. openssl rand -base64 32).");
			}
			if (!sharedSessions) {
				logger.info("The requestState of MCP 2026-07-28 input_required answers is sealed with the configured "
						+ "key ({}), but its single use is checked in memory, by this instance only (MCP sessions are "
						+ "kept in memory): on several instances, a state could be used once more on each other "
						+ "instance within its validity ({}); keep MCP sessions in the database to check it on every "
						+ "instance", property, validity);
			}
			return key;
		}

		private static boolean isPostgres(DataSource dataSource) {
			try (Connection connection = dataSource.getConnection()) {
				return connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
			}
			catch (SQLException ex) {
				throw new IllegalStateException("The MCP session store cannot reach the DataSource", ex);
			}
		}

		@Bean
		@ConditionalOnMissingBean(name = "webMvcStreamableServerRouterFunction")
		RouterFunction<ServerResponse> webMvcStreamableServerRouterFunction(HardenedStreamableHttpTransport transport) {
			return transport.routerFunction();
		}

	}

}
