package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.binding.ArgumentLimits;
import dev.agentmiddleware.binding.JsonArgumentBinder;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.InvocationAttribute;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnknownToolException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.util.function.SingletonSupplier;

/**
 * Every {@code @AgentTool} method of the context, by tool name, with its descriptor and
 * pipeline.
 *
 * <p>
 * Tools are registered by the tool bean post-processor as their beans are created; a tool
 * name used twice fails startup naming both beans. Asking for {@link #tools()} before
 * startup has finished first creates every bean that declares tools, so integrations that
 * collect tools early (such as the MCP server) see all of them. After startup the
 * registry checks the tool names configuration refers to ({@link ToolNameReferences}),
 * then builds every pipeline, so that settings a built-in refuses fail startup.
 */
public final class AgentToolRegistry implements BeanFactoryAware, SmartInitializingSingleton {

	/**
	 * The tool name calls of tools that do not exist are observed, logged and counted
	 * under, with the outcome {@code unknown_tool}
	 * ({@code agent.tool.call{agent.tool.name=unknown,agent.tool.outcome=unknown_tool}}):
	 * one fixed value, because the names a model makes up are unbounded. The name asked
	 * for is on the record's {@link UnknownToolException}.
	 */
	public static final String UNKNOWN_TOOL_NAME = "unknown";

	private static final ToolDescriptor UNKNOWN_TOOL = ToolDescriptor.builder(UNKNOWN_TOOL_NAME)
		.description("Stands for every call of a tool that does not exist; it runs nothing")
		.safety(SafetyLevel.SAFE)
		.readOnly(true)
		.idempotent(true)
		.resultType(void.class)
		.build();

	private static final InvocationAttribute<UnknownToolException> UNKNOWN_CALL = InvocationAttribute
		.of("unknown-tool-call", UnknownToolException.class);

	private final Map<String, RegisteredTool> tools = new ConcurrentHashMap<>();

	private final Map<Method, RegisteredTool> toolsByMethod = new ConcurrentHashMap<>();

	// Copied on write: read on every direct Java call, written once per Method instance.
	private volatile Map<Method, RegisteredTool> toolsByMethodInstance = new IdentityHashMap<>();

	private final ToolPipelineFactory pipelineFactory;

	private final Supplier<ToolPipeline> unknownToolPipeline;

	private final Supplier<JsonMapper> jsonMapper;

	private final ArgumentLimits argumentLimits;

	private final Supplier<List<ToolNameReferences>> nameReferences;

	private final Supplier<@Nullable ToolArgumentValidator> argumentValidator;

	private final ToolNameReferenceCheck nameReferenceCheck;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	private volatile boolean started;

	private boolean creatingToolBeans;

	private volatile boolean contributed;

	/**
	 * Creates the registry.
	 * @param pipelineFactory builds each tool's pipeline
	 * @param jsonMapper the mapper that binds JSON arguments
	 * @param argumentLimits the size and depth limits of JSON arguments
	 * @param argumentValidator checks bound JSON arguments, or supplies {@code null} for
	 * no check
	 * @param nameReferences the tool names configuration refers to
	 * @param failOnUnknownTool whether a name that matches no tool fails startup
	 * (otherwise a warning)
	 */
	AgentToolRegistry(ToolPipelineFactory pipelineFactory, Supplier<JsonMapper> jsonMapper,
			ArgumentLimits argumentLimits, Supplier<@Nullable ToolArgumentValidator> argumentValidator,
			Supplier<List<ToolNameReferences>> nameReferences, boolean failOnUnknownTool) {
		this.pipelineFactory = pipelineFactory;
		this.unknownToolPipeline = SingletonSupplier
			.of(() -> pipelineFactory.createForUnknownTools(UNKNOWN_TOOL, (invocation) -> {
				throw Objects.requireNonNull(invocation.attribute(UNKNOWN_CALL), "unknown-tool-call");
			}));
		this.jsonMapper = jsonMapper;
		this.argumentLimits = argumentLimits;
		this.argumentValidator = argumentValidator;
		this.nameReferences = nameReferences;
		this.nameReferenceCheck = new ToolNameReferenceCheck(failOnUnknownTool);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
			this.beanFactory = listable;
		}
	}

	/**
	 * Every registered tool, sorted by name.
	 * @return the tools
	 */
	public Collection<RegisteredTool> tools() {
		createToolBeans();
		contributeTools();
		return Collections.unmodifiableCollection(new TreeMap<>(this.tools).values());
	}

	/**
	 * The tool with the given name.
	 * @param name the tool name
	 * @return the tool, if registered
	 */
	public Optional<RegisteredTool> find(String name) {
		createToolBeans();
		contributeTools();
		return Optional.ofNullable(this.tools.get(name));
	}

	/**
	 * The tool with the given name.
	 * @param name the tool name
	 * @return the tool
	 * @throws UnknownToolException if no tool has that name
	 */
	public RegisteredTool get(String name) {
		return find(name).orElseThrow(() -> new UnknownToolException(name, new TreeMap<>(this.tools).keySet()));
	}

	/**
	 * Answers a call of a tool that does not exist, such as a name a model made up: the
	 * call is observed, logged and counted like any other, under
	 * {@value #UNKNOWN_TOOL_NAME} with the outcome {@code unknown_tool}, and seen by the
	 * observers (the chain's policies have nothing to decide); nothing runs. The caller
	 * puts the returned failure, which names the tool asked for and the ones that exist,
	 * in words for the model. <pre>{@code
	 * UnknownToolException error = registry.callUnknown("get_wether", List.of("get_weather"),
	 *         (call) -> call.sessionId("conversation-42"));
	 * String answer = error.getMessage(); // No tool named 'get_wether'; known tools: get_weather
	 * }</pre>
	 * @param name the name asked for
	 * @param availableTools the tools the caller could have called, listed in the message
	 * @param caller adds who called (session, principal, source) to the invocation being
	 * built
	 * @return the failure the call ended with
	 */
	public UnknownToolException callUnknown(String name, Collection<String> availableTools,
			UnaryOperator<ToolInvocation.Builder> caller) {
		UnknownToolException unknown = new UnknownToolException(name, availableTools);
		ToolInvocation invocation = caller.apply(ToolInvocation.builder(UNKNOWN_TOOL).attribute(UNKNOWN_CALL, unknown))
			.build();
		try {
			this.unknownToolPipeline.get().call(invocation);
		}
		catch (Exception ex) {
			if (ex != unknown) {
				unknown.addSuppressed(ex);
			}
		}
		return unknown;
	}

	/**
	 * Registers every {@code @AgentTool} method of a bean.
	 * @param beanName the bean name
	 * @param bean the bean, possibly a Spring AOP proxy
	 * @param beanIsAdvised whether the bean is a proxy our advisor joins
	 * @throws IllegalStateException if a tool name is taken, or a method cannot be
	 * proxied
	 */
	void register(String beanName, Object bean, boolean beanIsAdvised) {
		Class<?> targetClass = AopUtils.getTargetClass(bean);
		// Sorted so that startup, and any failure it reports, is the same on every run.
		Map<Method, AgentTool> methods = new TreeMap<>(Comparator.comparing(Method::toGenericString));
		methods.putAll(ToolMethods.of(targetClass));
		methods.forEach((method, annotation) -> register(beanName, bean, beanIsAdvised, method, annotation));
	}

	private void register(String beanName, Object bean, boolean beanIsAdvised, Method method, AgentTool annotation) {
		checkProxyable(beanName, method);
		ToolMethod toolMethod = ToolMethod.of(method, annotation);
		ToolDescriptor descriptor = toolMethod.descriptor();
		String[] parameterNames = toolMethod.parameters().stream().map((p) -> p.name()).toArray(String[]::new);
		ToolMethodInvoker invoker = new ToolMethodInvoker(bean, method, parameterNames, beanIsAdvised);
		JsonArgumentBinder binder = new JsonArgumentBinder(descriptor.name(), toolMethod.parameters(),
				this.jsonMapper.get(), this.argumentLimits);
		RegisteredTool registered = new RegisteredTool(new ExecutableTool(descriptor, invoker), beanName, bean, method,
				parameterNames, binder, this.argumentValidator.get(), this.pipelineFactory::create);
		RegisteredTool existing = this.tools.putIfAbsent(descriptor.name(), registered);
		if (existing != null) {
			throw new IllegalStateException("Duplicate tool name '" + descriptor.name() + "': declared by "
					+ describe(existing) + " and by bean '" + beanName + "' (" + describe(method)
					+ "); give one of them another @AgentTool(name = ...)");
		}
		this.toolsByMethod.put(method, registered);
	}

	/**
	 * Registers a tool that is not an {@code @AgentTool} method, such as a tool an agent
	 * middleware contributes or a Spring AI {@code ToolCallback} put under governance.
	 * The tool gets a pipeline from the same chain as every other tool and shows in
	 * {@link #tools()}, the MCP tool list and the actuator endpoint.
	 *
	 * <p>
	 * Its JSON arguments are bound against the properties of its input schema: each
	 * property is a parameter read as a plain JSON value (maps, lists, strings, numbers,
	 * booleans), those listed under {@code required} must be given, and a property the
	 * schema does not declare is refused with a clear error.
	 *
	 * <p>
	 * Registering the same owner's tool again with an equal descriptor returns the tool
	 * already registered, so integrations may register lazily, once per call. <pre>{@code
	 * RegisteredTool todos = registry.register(readTodosTool, "agent-middleware:todo");
	 * }</pre>
	 * @param tool the tool and its own code
	 * @param owner what declares the tool, shown instead of a bean name, such as
	 * {@code agent-middleware:todo}
	 * @return the registered tool
	 * @throws IllegalStateException if another tool already has the name, naming both
	 * owners
	 */
	public RegisteredTool register(ExecutableTool tool, String owner) {
		ToolDescriptor descriptor = tool.descriptor();
		RegisteredTool existing = this.tools.get(descriptor.name());
		if (existing != null && existing.method() == null && existing.beanName().equals(owner)
				&& existing.descriptor().equals(descriptor)) {
			return existing;
		}
		JsonArgumentBinder binder = new JsonArgumentBinder(descriptor.name(),
				SchemaParameters.of(descriptor.name(), descriptor.inputSchema(), this.jsonMapper.get()),
				this.jsonMapper.get(), this.argumentLimits);
		RegisteredTool registered = new RegisteredTool(tool, owner, binder, this.pipelineFactory::create);
		existing = this.tools.putIfAbsent(descriptor.name(), registered);
		if (existing != null) {
			if (existing.method() == null && existing.beanName().equals(owner)
					&& existing.descriptor().equals(descriptor)) {
				return existing;
			}
			throw new IllegalStateException("Duplicate tool name '" + descriptor.name() + "': declared by "
					+ describe(existing) + " and by " + owner + "; rename one of them");
		}
		return registered;
	}

	private static String describe(RegisteredTool tool) {
		Method method = tool.method();
		return (method != null) ? "bean '" + tool.beanName() + "' (" + describe(method) + ")" : tool.beanName();
	}

	/**
	 * The tool behind a method called on a proxy.
	 * @param method the method the proxy was called with
	 * @return the tool, or {@code null} if the method is not a tool
	 */
	@Nullable RegisteredTool forMethod(Method method) {
		// Proxies pass the same Method instance on every call: an identity lookup avoids
		// Method.equals.
		RegisteredTool tool = this.toolsByMethodInstance.get(method);
		if (tool != null) {
			return tool;
		}
		tool = this.toolsByMethod.get(method);
		if (tool == null) {
			tool = this.toolsByMethod.get(BridgeMethodResolver.findBridgedMethod(method));
		}
		if (tool != null) {
			synchronized (this.toolsByMethod) {
				Map<Method, RegisteredTool> instances = new IdentityHashMap<>(this.toolsByMethodInstance);
				instances.put(method, tool);
				this.toolsByMethodInstance = instances;
			}
		}
		return tool;
	}

	@Override
	public void afterSingletonsInstantiated() {
		contributeTools();
		this.started = true;
		this.nameReferenceCheck.check(List.copyOf(new TreeMap<>(this.tools).keySet()), this.nameReferences.get());
		for (RegisteredTool tool : tools()) {
			// Building each pipeline now makes a configuration a built-in refuses fail
			// startup, not the first call.
			tool.pipeline();
		}
	}

	private void contributeTools() {
		ConfigurableListableBeanFactory beanFactory = this.beanFactory;
		if (this.contributed || beanFactory == null) {
			return;
		}
		synchronized (this) {
			if (this.contributed) {
				return;
			}
			this.contributed = true;
			beanFactory.getBeanProvider(AgentToolContributor.class)
				.orderedStream()
				.forEach((contributor) -> contributor.contribute(this));
		}
	}

	private void createToolBeans() {
		ConfigurableListableBeanFactory beanFactory = this.beanFactory;
		if (this.started || beanFactory == null || this.creatingToolBeans) {
			return;
		}
		this.creatingToolBeans = true;
		try {
			for (String name : beanFactory.getBeanDefinitionNames()) {
				BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
				if (definition.isAbstract() || definition.isLazyInit() || !definition.isSingleton()) {
					continue;
				}
				Class<?> type = beanFactory.getType(name, false);
				if (type != null && !ToolMethods.of(type).isEmpty()) {
					beanFactory.getBean(name);
				}
			}
		}
		finally {
			this.creatingToolBeans = false;
		}
	}

	private static void checkProxyable(String beanName, Method method) {
		int modifiers = method.getModifiers();
		String problem = null;
		if (Modifier.isStatic(modifiers)) {
			problem = "is static";
		}
		else if (!Modifier.isPublic(modifiers)) {
			problem = "is not public";
		}
		else if (Modifier.isFinal(modifiers)) {
			problem = "is final";
		}
		else if (Modifier.isFinal(method.getDeclaringClass().getModifiers())) {
			problem = "is declared by a final class";
		}
		if (problem != null) {
			throw new IllegalStateException("@AgentTool method " + describe(method) + " of bean '" + beanName + "' "
					+ problem + ": tool methods must be public, non-static and overridable so that direct Java calls "
					+ "run through the middleware chain");
		}
	}

	private static String describe(Method method) {
		return method.getDeclaringClass().getName() + "." + method.getName();
	}

}
