package dev.agentmiddleware.test;

import java.net.URL;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.support.GenericBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * One tool behind its real pipeline, for tests: call it with JSON or a map of arguments,
 * and get its result, its failure, or the record of the call.
 *
 * <p>
 * Two ways to build one, both with the real classes of the chain (nothing is copied or
 * simulated):
 * <ul>
 * <li>{@link #chain(ExecutableTool, ToolMiddleware...)}: a chosen list of middleware,
 * outermost first, around a plain tool, composed by {@link ToolPipeline}, as in an
 * application without Spring;</li>
 * <li>{@link #agentTool(Object)}: an object with an {@code @AgentTool} method, in a small
 * application context that runs the auto-configurations of the Boot module
 * ({@code middleware-spring-boot-autoconfigure}), so the tool gets exactly the built-ins
 * an application gets for the same properties: argument binding and validation, approval,
 * rate limit, cache, retry, timeout, result guards, and so on. The harness then closes
 * that context in {@link #close()}.</li>
 * </ul>
 * A {@link RecordingToolCallObserver} watches every call ({@link #observer()});
 * {@link #call} returns the result or throws the failure the caller of the pipeline sees,
 * {@link #attempt} never throws and returns the call's record. <pre>{@code
 * try (ToolHarness search = ToolHarness.agentTool(new SearchTools())
 *         .properties("agent.middleware.rate-limit.tools.search.limit-for-period=1",
 *                 "agent.middleware.rate-limit.tools.search.limit-refresh-period=1h")
 *         .build()) {
 *     assertThat(search.call("{\"query\":\"a\"}")).isEqualTo("found a");
 *     assertThatExceptionOfType(ToolRateLimitedException.class).isThrownBy(() -> search.call("{\"query\":\"b\"}"));
 *     assertThat(search.attempt(Map.of("query", "c")).outcome()).isEqualTo(CallOutcome.RATE_LIMITED);
 * }
 *
 * try (ToolHarness echo = ToolHarness.chain(echoTool, new MyAuditMiddleware())) {
 *     assertThat(echo.call(Map.of("text", "hi"))).isEqualTo("hi");
 *     assertThat(echo.observer().lastRecord().decidedBy()).isNull();
 * }
 * }</pre> Safe to call from many threads, as the pipeline is.
 */
public final class ToolHarness implements AutoCloseable {

	private static final String TOOL_BEAN_NAME = "toolHarnessTools";

	private static final AtomicLong callIds = new AtomicLong();

	private final ToolPipeline pipeline;

	private final Function<@Nullable String, ToolInvocation.Builder> jsonCall;

	private final Function<Map<String, ? extends @Nullable Object>, ToolInvocation.Builder> mapCall;

	private final RecordingToolCallObserver observer;

	private final AutoCloseable resources;

	private final @Nullable AnnotationConfigApplicationContext context;

	private ToolHarness(ToolPipeline pipeline, Function<@Nullable String, ToolInvocation.Builder> jsonCall,
			Function<Map<String, ? extends @Nullable Object>, ToolInvocation.Builder> mapCall,
			RecordingToolCallObserver observer, AutoCloseable resources,
			@Nullable AnnotationConfigApplicationContext context) {
		this.pipeline = pipeline;
		this.jsonCall = jsonCall;
		this.mapCall = mapCall;
		this.observer = observer;
		this.resources = resources;
		this.context = context;
	}

	/**
	 * A harness for a plain tool behind exactly the given middleware, outermost first
	 * (the order given is the order they run in, whatever their own order). JSON
	 * arguments are read into a map of JSON values, as an MCP client sends them; the tool
	 * binds them itself.
	 * @param tool the tool
	 * @param middleware the middleware, outermost first, none for the bare tool
	 * @return the harness
	 */
	public static ToolHarness chain(ExecutableTool tool, ToolMiddleware... middleware) {
		return chain(tool, List.of(middleware));
	}

	/**
	 * A harness for a plain tool behind exactly the given middleware, outermost first.
	 * @param tool the tool
	 * @param middleware the middleware, outermost first
	 * @return the harness
	 * @see #chain(ExecutableTool, ToolMiddleware...)
	 */
	public static ToolHarness chain(ExecutableTool tool, List<? extends ToolMiddleware> middleware) {
		Objects.requireNonNull(tool, "tool");
		RecordingToolCallObserver observer = new RecordingToolCallObserver();
		ToolCallObservers observers = ToolCallObservers.builder().observer(observer).build();
		ToolPipeline pipeline = ToolPipeline.builder(tool.descriptor(), tool.handler())
			.middleware(middleware)
			.observers(observers)
			.build();
		ToolDescriptor descriptor = tool.descriptor();
		return new ToolHarness(pipeline, (json) -> ToolInvocation.builder(descriptor).arguments(readObject(json)),
				(arguments) -> ToolInvocation.builder(descriptor).arguments(arguments), observer, observers, null);
	}

	/**
	 * Starts a harness for the {@code @AgentTool} method of an object, behind the
	 * built-ins the Boot module configures. Configure it with {@link Builder#properties
	 * properties} as an application would.
	 * @param tools an object with one {@code @AgentTool} method, or several and
	 * {@link Builder#tool(String)}
	 * @return a builder
	 */
	public static Builder agentTool(Object tools) {
		return new Builder(tools);
	}

	/**
	 * Calls the tool with arguments as a JSON object.
	 * @param json the arguments, {@code null} or blank for none
	 * @return what the pipeline returned
	 * @throws Exception what the pipeline threw: the tool's own failure, or a
	 * middleware's refusal such as {@code ToolRateLimitedException},
	 * {@code ApprovalDeniedException} or {@code InvalidToolArgumentsException}
	 */
	public @Nullable Object call(@Nullable String json) throws Exception {
		return this.pipeline.call(this.jsonCall.apply(json).build());
	}

	/**
	 * Calls the tool with arguments as a map of JSON values (strings, numbers, booleans,
	 * lists, maps).
	 * @param arguments the arguments by name
	 * @return what the pipeline returned
	 * @throws Exception what the pipeline threw
	 * @see #call(String)
	 */
	public @Nullable Object call(Map<String, ? extends @Nullable Object> arguments) throws Exception {
		return this.pipeline.call(this.mapCall.apply(arguments).build());
	}

	/**
	 * Calls the tool with arguments as a JSON object and returns the record of the call,
	 * whatever its outcome.
	 * @param json the arguments, {@code null} or blank for none
	 * @return the call's record: outcome, result or failure, the middleware that decided
	 * it
	 */
	public ToolCallRecord attempt(@Nullable String json) {
		return attempt(this.jsonCall.apply(json));
	}

	/**
	 * Calls the tool with arguments as a map of JSON values and returns the record of the
	 * call, whatever its outcome.
	 * @param arguments the arguments by name
	 * @return the call's record
	 */
	public ToolCallRecord attempt(Map<String, ? extends @Nullable Object> arguments) {
		return attempt(this.mapCall.apply(arguments));
	}

	private ToolCallRecord attempt(ToolInvocation.Builder invocation) {
		String callId = "tool-harness-" + callIds.incrementAndGet();
		try {
			this.pipeline.call(invocation.callId(callId).build());
		}
		catch (Exception ex) {
			// The record holds the failure
		}
		return this.observer.records()
			.stream()
			.filter((record) -> record.invocation().callId().equals(callId))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("The call " + callId + " was not observed"));
	}

	/**
	 * The tool, as the pipeline describes it.
	 * @return the descriptor
	 */
	public ToolDescriptor tool() {
		return this.pipeline.tool();
	}

	/**
	 * The names of the pipeline's layers, outermost first, the tool last, such as
	 * {@code [approval, rate-limit, search]}.
	 * @return the layer names
	 */
	public List<String> layers() {
		return this.pipeline.layers();
	}

	/**
	 * The observer that records every call of this harness.
	 * @return the observer
	 */
	public RecordingToolCallObserver observer() {
		return this.observer;
	}

	/**
	 * A bean of the application context of a harness built with
	 * {@link #agentTool(Object)}, such as the {@code ApprovalStore} or a
	 * {@code MeterRegistry}.
	 * @param <T> the bean type
	 * @param type the bean type
	 * @return the single bean of that type
	 * @throws IllegalStateException for a harness built with
	 * {@link #chain(ExecutableTool, ToolMiddleware...)}
	 */
	public <T> T bean(Class<T> type) {
		if (this.context == null) {
			throw new IllegalStateException("A harness built with chain(...) has no application context");
		}
		return this.context.getBean(type);
	}

	/**
	 * Stops the observers and, for a harness built with {@link #agentTool(Object)},
	 * closes its application context.
	 */
	@Override
	public void close() {
		try {
			this.resources.close();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not close the tool harness", ex);
		}
	}

	@Override
	public String toString() {
		return "ToolHarness[" + this.pipeline.describe() + "]";
	}

	@SuppressWarnings("unchecked")
	private static Map<String, @Nullable Object> readObject(@Nullable String json) {
		if (!StringUtils.hasText(json)) {
			return Map.of();
		}
		return JsonMapper.shared().readValue(json, LinkedHashMap.class);
	}

	/**
	 * Builds a {@link ToolHarness} around an {@code @AgentTool} object, in an application
	 * context with the Boot module's auto-configurations, the given properties and beans,
	 * and any further auto-configurations.
	 */
	public static final class Builder {

		private final Object tools;

		private @Nullable String toolName;

		private final Map<String, Object> properties = new LinkedHashMap<>();

		private final List<Bean<?>> beans = new ArrayList<>();

		private final List<Class<?>> configurations = new ArrayList<>();

		private Builder(Object tools) {
			this.tools = Objects.requireNonNull(tools, "tools");
		}

		/**
		 * Chooses the tool, when the object declares several.
		 * @param name the tool name
		 * @return this builder
		 */
		public Builder tool(String name) {
			this.toolName = Objects.requireNonNull(name, "name");
			return this;
		}

		/**
		 * Adds properties, as an application's {@code application.properties} would set
		 * them.
		 * @param pairs {@code key=value} pairs, such as
		 * {@code agent.middleware.cache.tools.search.ttl=5m}
		 * @return this builder
		 * @throws IllegalArgumentException for a pair without {@code =}
		 */
		public Builder properties(String... pairs) {
			for (String pair : pairs) {
				int equals = pair.indexOf('=');
				if (equals <= 0) {
					throw new IllegalArgumentException("Expected key=value but got '" + pair + "'");
				}
				this.properties.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
			}
			return this;
		}

		/**
		 * Adds a bean, such as an {@code ApprovalCallback}, a {@code ToolMiddleware} or a
		 * {@code MeterRegistry}; one per type, as the bean is named after its type.
		 * @param <T> the bean type
		 * @param type the type the context knows the bean by
		 * @param bean the bean
		 * @return this builder
		 */
		public <T> Builder bean(Class<T> type, T bean) {
			Objects.requireNonNull(bean, "bean");
			this.beans.add(new Bean<>(Objects.requireNonNull(type, "type"), () -> bean));
			return this;
		}

		/**
		 * Adds auto-configurations beyond the Boot module's, such as a store module's.
		 * @param autoConfigurations the auto-configuration classes
		 * @return this builder
		 */
		public Builder configurations(Class<?>... autoConfigurations) {
			this.configurations.addAll(List.of(autoConfigurations));
			return this;
		}

		/**
		 * Starts the application context and finds the tool.
		 * @return the harness, which closes the context when closed
		 * @throws IllegalStateException if the object declares no tool, or several and
		 * none was chosen
		 * @throws org.springframework.beans.BeansException if the context fails to start,
		 * as an application would for the same properties
		 */
		@SuppressWarnings("unchecked")
		public ToolHarness build() {
			RecordingToolCallObserver observer = new RecordingToolCallObserver();
			AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
			try {
				context.getEnvironment()
					.getPropertySources()
					.addFirst(new MapPropertySource("toolHarness", new LinkedHashMap<>(this.properties)));
				context.registerBean("toolHarnessObserver", RecordingToolCallObserver.class, () -> observer);
				context.registerBean(TOOL_BEAN_NAME, (Class<Object>) this.tools.getClass(), () -> this.tools);
				for (Bean<?> bean : this.beans) {
					bean.registerWith(context);
				}
				List<Class<?>> autoConfigurations = new ArrayList<>(bootModuleAutoConfigurations());
				autoConfigurations.addAll(this.configurations);
				for (Class<?> autoConfiguration : Configurations
					.getClasses(AutoConfigurations.of(autoConfigurations.toArray(Class[]::new)))) {
					// By class name, so that their conditions are read from the class
					// file, as Boot reads them:
					// a class condition naming a library that is absent skips the
					// configuration
					GenericBeanDefinition definition = new GenericBeanDefinition();
					definition.setBeanClassName(autoConfiguration.getName());
					context.registerBeanDefinition(autoConfiguration.getName(), definition);
				}
				context.refresh();
				RegisteredTool tool = findTool(context.getBean(AgentToolRegistry.class));
				return new ToolHarness(tool.pipeline(), tool::unboundInvocation, tool::unboundInvocation, observer,
						context, context);
			}
			catch (RuntimeException ex) {
				context.close();
				throw ex;
			}
		}

		private RegisteredTool findTool(AgentToolRegistry registry) {
			List<RegisteredTool> declared = registry.tools()
				.stream()
				.filter((tool) -> TOOL_BEAN_NAME.equals(tool.beanName()))
				.toList();
			List<String> names = declared.stream().map(RegisteredTool::name).toList();
			if (this.toolName != null) {
				return declared.stream()
					.filter((tool) -> tool.name().equals(this.toolName))
					.findFirst()
					.orElseThrow(() -> new IllegalStateException("No tool '" + this.toolName + "' on "
							+ this.tools.getClass().getName() + "; it declares " + names));
			}
			if (declared.size() != 1) {
				String declares = declared.isEmpty() ? "no @AgentTool method"
						: "the tools " + names + "; choose one with tool(name)";
				throw new IllegalStateException(this.tools.getClass().getName() + " declares " + declares);
			}
			return declared.get(0);
		}

		// The auto-configurations the Boot module lists, read from its own imports file,
		// so that the harness follows
		// the module instead of a copy of its list.
		private static List<Class<?>> bootModuleAutoConfigurations() {
			ClassLoader classLoader = ToolHarness.class.getClassLoader();
			URL bootModule = location(AgentToolAutoConfiguration.class);
			List<Class<?>> classes = new ArrayList<>();
			for (String candidate : ImportCandidates.load(AutoConfiguration.class, classLoader)) {
				if (ClassUtils.isPresent(candidate, classLoader)) {
					Class<?> type = ClassUtils.resolveClassName(candidate, classLoader);
					if (bootModule.equals(location(type))) {
						classes.add(type);
					}
				}
			}
			return classes;
		}

		private static URL location(Class<?> type) {
			CodeSource codeSource = type.getProtectionDomain().getCodeSource();
			if (codeSource == null || codeSource.getLocation() == null) {
				throw new IllegalStateException("Cannot tell which module " + type.getName() + " comes from");
			}
			return codeSource.getLocation();
		}

	}

	private record Bean<T>(Class<T> type, Supplier<T> supplier) {

		void registerWith(AnnotationConfigApplicationContext context) {
			context.registerBean(this.type, this.supplier);
		}

	}

}
