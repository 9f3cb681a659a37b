package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks extension of MCP {@code 2026-07-28} ({@code io.modelcontextprotocol/tasks},
 * SEP-2663) for the {@link StatelessMcpServer}:
 * <ul>
 * <li>{@code server/discover} advertises it under {@code capabilities.extensions}, and
 * {@code tools/list} shows each tool's {@code execution.taskSupport}
 * ({@link dev.agentmiddleware.spring.AgentTool#taskSupport()});</li>
 * <li>a request whose {@code _meta} client capabilities carry the extension negotiated
 * it, for that request; {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel}
 * without it, and a {@code tools/call} of a tool that requires a task without it, are
 * refused with {@code -32021} and the required capability;</li>
 * <li>a {@code tools/call} of a tool that supports tasks, with the extension, answers a
 * {@code CreateTaskResult} once the task is in the {@link McpTaskStore}; the call then
 * runs on a thread of this instance through the tool's handler (the same governed chain,
 * {@link McpToolHandler}), with the request's principal, and writes its end to the store:
 * {@code completed} with the {@code CallToolResult} (a tool error is
 * {@code result.isError}), or {@code failed} with a JSON-RPC error when the handler
 * itself fails (an {@link McpError}, an {@link Error} a tool throws);</li>
 * <li>a tool declared {@code @AgentTool(inputBeforeTask = true)} gathers its input by
 * {@code input_required} rounds first, and its call becomes a task on the round that
 * answers its questions ({@link StatelessMcpTaskEscalation}, which uses
 * {@link #escalate}, {@link #session} and {@link #settle});</li>
 * <li>a request the call sends its client parks the task in {@code input_required}
 * ({@link McpTaskSession}); {@code tasks/update} writes the answers to the store, where
 * the waiting call finds them;</li>
 * <li>{@code tasks/cancel} marks the task {@code cancelled} in the store and cancels the
 * call through the chain ({@link CallCancellation}): at once on the instance that runs
 * it, within a check interval from another (each instance checks the tasks it runs).</li>
 * </ul>
 * A task belongs to the principal that created it: another caller gets {@code -32602}, as
 * for an unknown task. Limits: a task runs on the instance that took its call, and ends
 * with it (a task of an instance that stopped stays {@code working} until it expires);
 * each running task holds a thread of its own; tasks are not listed ({@code tasks/list}
 * and {@code tasks/result} were removed by the extension: {@code -32601}); no
 * {@code notifications/tasks} are sent.
 */
final class StatelessMcpTasks {

	/** The extension's identifier. */
	static final String EXTENSION = "io.modelcontextprotocol/tasks";

	static final String METHOD_GET = "tasks/get";

	static final String METHOD_UPDATE = "tasks/update";

	static final String METHOD_CANCEL = "tasks/cancel";

	/** How often a waiting or running task looks at the store. */
	static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMillis(200);

	static final TypeRef<LinkedHashMap<String, Object>> MAP = new TypeRef<>() {
	};

	private static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

	private static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private static final AtomicInteger THREADS = new AtomicInteger();

	private final McpJsonMapper jsonMapper;

	private final McpTaskStore store;

	private final Function<String, TaskSupport> taskSupport;

	private final Duration ttl;

	private final Duration pollInterval;

	private final Duration checkInterval;

	private final Clock clock;

	// The calls this instance runs, by task id
	private final Map<String, CallCancellation> running = new ConcurrentHashMap<>();

	private final ExecutorService runner = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "mcp-task-" + THREADS.incrementAndGet());
		thread.setDaemon(true);
		return thread;
	});

	// Started with the first task: looks for the tasks cancelled on another instance
	private volatile @Nullable ScheduledExecutorService watcher;

	/**
	 * Creates the extension.
	 * @param jsonMapper converts the results and the client's answers
	 * @param store where the tasks live
	 * @param taskSupport the task support of a tool, by name
	 * @param ttl how long a task is kept after its last change
	 * @param pollInterval how often a client should poll a task
	 * @param checkInterval how often a task waiting for its client, or running here,
	 * looks at the store
	 * @param clock the clock of the task times
	 */
	StatelessMcpTasks(McpJsonMapper jsonMapper, McpTaskStore store, Function<String, TaskSupport> taskSupport,
			Duration ttl, Duration pollInterval, Duration checkInterval, Clock clock) {
		this.jsonMapper = jsonMapper;
		this.store = store;
		this.taskSupport = taskSupport;
		this.ttl = ttl;
		this.pollInterval = pollInterval;
		this.checkInterval = checkInterval;
		this.clock = clock;
	}

	/**
	 * The capabilities {@code server/discover} answers, with the extension when tools are
	 * served.
	 * @param capabilities the catalog's capabilities
	 * @param servesTools whether tools are served
	 * @return the capabilities as JSON
	 */
	Map<String, Object> capabilities(Object capabilities, boolean servesTools) {
		Map<String, Object> advertised = this.jsonMapper.convertValue(capabilities, MAP);
		if (servesTools) {
			Map<String, Object> extensions = new LinkedHashMap<>();
			if (advertised.get("extensions") instanceof Map<?, ?> declared) {
				declared.forEach((key, value) -> extensions.put(String.valueOf(key), value));
			}
			extensions.put(EXTENSION, Map.of());
			advertised.put("extensions", extensions);
		}
		return advertised;
	}

	/**
	 * A tool as {@code tools/list} shows it: with {@code execution.taskSupport} when it
	 * supports tasks.
	 * @param tool the tool
	 * @return the tool as JSON
	 */
	Map<String, Object> listed(McpSchema.Tool tool) {
		Map<String, Object> listed = this.jsonMapper.convertValue(tool, MAP);
		TaskSupport support = taskSupport(tool.name());
		if (support != TaskSupport.FORBIDDEN) {
			listed.put("execution", Map.of("taskSupport", support.name().toLowerCase(Locale.ROOT)));
		}
		return listed;
	}

	/**
	 * Whether a call runs as a task: its tool supports tasks and its request negotiated
	 * the extension.
	 * @param tool the tool called
	 * @param params the call's params
	 * @return {@code true} to {@link #start} it
	 * @throws McpError {@code -32021} when the tool requires a task and the request did
	 * not negotiate the extension
	 */
	boolean runsAsTask(SyncToolSpecification tool, Map<?, ?> params) {
		TaskSupport support = taskSupport(tool.tool().name());
		if (support == TaskSupport.FORBIDDEN) {
			return false;
		}
		if (negotiated(params)) {
			return true;
		}
		if (support == TaskSupport.REQUIRED) {
			throw missingExtension("tool '" + tool.tool().name() + "' runs only as a task");
		}
		return false;
	}

	/**
	 * Creates the task of a call and starts the call in the background.
	 * @param tool the tool called
	 * @param call the call
	 * @param params the call's params, with its {@code _meta}
	 * @param principal the caller, or {@code null}
	 * @param baseUrl the request's base URL
	 * @return the {@code CreateTaskResult}
	 */
	Map<String, Object> start(SyncToolSpecification tool, McpSchema.CallToolRequest call, Map<?, ?> params,
			@Nullable ToolPrincipal principal, String baseUrl) {
		String id = UUID.randomUUID().toString();
		McpTask task = McpTask.working(id, owner(principal), this.clock.millis(), this.ttl.toMillis(),
				this.pollInterval.toMillis());
		this.store.create(task);
		CallCancellation cancellation = new CallCancellation();
		McpSyncServerExchange exchange = exchange(id, params, principal, baseUrl, cancellation);
		this.running.put(id, cancellation);
		watch();
		try {
			this.runner.execute(() -> run(id, tool, exchange, call, cancellation));
		}
		catch (RuntimeException ex) {
			this.running.remove(id);
			this.store.update(id, (each) -> each.failed(internalError(), this.clock.millis()));
			throw ex;
		}
		return created(task);
	}

	/**
	 * Answers {@code tasks/get}, {@code tasks/update} or {@code tasks/cancel}.
	 * @param method the method
	 * @param params its params
	 * @param principal the caller, or {@code null}
	 * @return the result, {@code resultType} included
	 * @throws McpError {@code -32021} without the extension, {@code -32602} for an
	 * unknown task
	 */
	Map<String, Object> answer(String method, Map<?, ?> params, @Nullable ToolPrincipal principal) {
		if (!negotiated(params)) {
			throw missingExtension(method + " is part of the tasks extension");
		}
		if (!(params.get("taskId") instanceof String id)) {
			throw invalidParams("Invalid params: taskId is required");
		}
		String owner = owner(principal);
		McpTask task = this.store.find(id);
		if (task == null || !Objects.equals(task.owner(), owner)) {
			throw invalidParams("Invalid params: no such task");
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("resultType", "complete");
		switch (method) {
			case METHOD_GET -> result.putAll(task.detailed());
			case METHOD_UPDATE -> {
				if (params.get("inputResponses") instanceof Map<?, ?> responses) {
					this.store.update(id, (each) -> each.answered(responses, this.clock.millis()));
				}
			}
			case METHOD_CANCEL -> {
				this.store.update(id, (each) -> each.cancelled(this.clock.millis()));
				CallCancellation cancellation = this.running.get(id);
				if (cancellation != null) {
					cancellation.cancel("the client cancelled the task");
				}
			}
			default -> throw new IllegalArgumentException("Not a method of the tasks extension: " + method);
		}
		return result;
	}

	/**
	 * Cancels every call this instance runs, and their tasks.
	 * @param reason why, for the audit trail
	 */
	void cancelAll(String reason) {
		this.running.forEach((id, cancellation) -> {
			try {
				this.store.update(id, (task) -> task.cancelled(this.clock.millis()));
			}
			catch (RuntimeException ex) {
				logger.debug("MCP task {} could not be marked cancelled: {}", id, ex.toString());
			}
			cancellation.cancel(reason);
		});
	}

	/**
	 * Creates the task of a call that runs already, on a thread of {@link #execute}: a
	 * call that gathered its input by {@code input_required} rounds and escalates
	 * ({@link StatelessMcpTaskEscalation}). The call ends its task with {@link #settle}.
	 * @param id the task's id
	 * @param principal the caller, or {@code null}
	 * @param cancellation the call's cancellation, which {@code tasks/cancel} cancels
	 * @return the {@code CreateTaskResult}
	 */
	Map<String, Object> escalate(String id, @Nullable ToolPrincipal principal, CallCancellation cancellation) {
		McpTask task = McpTask.working(id, owner(principal), this.clock.millis(), this.ttl.toMillis(),
				this.pollInterval.toMillis());
		this.store.create(task);
		this.running.put(id, cancellation);
		watch();
		return created(task);
	}

	/**
	 * Creates the task of a call that ended before it escalated: completed with its
	 * result.
	 * @param principal the caller, or {@code null}
	 * @param result the call's result
	 * @return the {@code CreateTaskResult}
	 */
	Map<String, Object> completed(@Nullable ToolPrincipal principal, McpSchema.CallToolResult result) {
		long now = this.clock.millis();
		McpTask task = McpTask
			.working(UUID.randomUUID().toString(), owner(principal), now, this.ttl.toMillis(),
					this.pollInterval.toMillis())
			.completed(this.jsonMapper.convertValue(result, MAP), now);
		this.store.create(task);
		return created(task);
	}

	/**
	 * The MCP SDK's view of a task's call for the requests it sends its client: each
	 * parks the task in {@code input_required} until {@code tasks/update} answers it.
	 * @param id the task's id
	 * @param cancellation the call's cancellation
	 * @return the session
	 */
	McpTaskSession session(String id, CallCancellation cancellation) {
		return new McpTaskSession(id, this.store, this.jsonMapper, cancellation, this.checkInterval, this.clock);
	}

	/**
	 * Runs a call on a thread of the tasks.
	 * @param call the call
	 */
	void execute(Runnable call) {
		this.runner.execute(call);
	}

	/**
	 * Writes the end of a task's call to the store: {@code completed} with its result, or
	 * {@code failed} with the JSON-RPC error of its handler's failure.
	 * @param id the task's id
	 * @param toolName the tool, for the log
	 * @param result the call's result, or {@code null} when it failed
	 * @param failure what its handler threw, or {@code null}
	 */
	void settle(String id, String toolName, McpSchema.@Nullable CallToolResult result, @Nullable Throwable failure) {
		try {
			if (failure == null && result != null) {
				Map<String, Object> inlined = this.jsonMapper.convertValue(result, MAP);
				this.store.update(id, (task) -> task.completed(inlined, this.clock.millis()));
			}
			else if (failure instanceof McpError ex) {
				this.store.update(id, (task) -> task.failed(this.jsonMapper.convertValue(ex.getJsonRpcError(), MAP),
						this.clock.millis()));
			}
			else {
				logger.warn("MCP task of tool '{}' failed in its handler: {}", toolName,
						(failure != null) ? failure.getClass().getSimpleName() : "no result");
				this.store.update(id, (task) -> task.failed(internalError(), this.clock.millis()));
			}
		}
		finally {
			this.running.remove(id);
		}
	}

	private void run(String id, SyncToolSpecification tool, McpSyncServerExchange exchange,
			McpSchema.CallToolRequest call, CallCancellation cancellation) {
		McpSchema.CallToolResult result = null;
		Throwable failure = null;
		try {
			result = tool.callHandler().apply(exchange, call);
		}
		catch (Throwable ex) {
			failure = ex;
		}
		settle(id, tool.tool().name(), result, failure);
	}

	private static Map<String, Object> created(McpTask task) {
		Map<String, Object> created = new LinkedHashMap<>();
		created.put("resultType", "task");
		created.putAll(task.envelope());
		return created;
	}

	private void watch() {
		if (this.watcher == null) {
			synchronized (this.running) {
				if (this.watcher == null) {
					ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor((task) -> {
						Thread thread = new Thread(task, "mcp-task-watcher");
						thread.setDaemon(true);
						return thread;
					});
					long every = Math.max(1, this.checkInterval.toMillis());
					watcher.scheduleWithFixedDelay(this::cancelThoseCancelledElsewhere, every, every,
							TimeUnit.MILLISECONDS);
					this.watcher = watcher;
				}
			}
		}
	}

	// A task cancelled on another instance, or gone from the store, is cancelled here
	private void cancelThoseCancelledElsewhere() {
		this.running.forEach((id, cancellation) -> {
			try {
				McpTask task = this.store.find(id);
				if (task == null || task.status() == McpTask.Status.CANCELLED) {
					cancellation.cancel("the client cancelled the task");
				}
			}
			catch (RuntimeException ex) {
				logger.debug("MCP task {} could not be checked: {}", id, ex.toString());
			}
		});
	}

	// The SDK's view of the task's call: the principal, the base URL and the call's
	// cancellation in its transport context, the client's capabilities and info of the
	// request that created it
	private McpSyncServerExchange exchange(String id, Map<?, ?> params, @Nullable ToolPrincipal principal,
			String baseUrl, CallCancellation cancellation) {
		Map<?, ?> meta = meta(params);
		Object declared = meta.get(META_CLIENT_CAPABILITIES);
		McpSchema.ClientCapabilities capabilities = (declared != null)
				? this.jsonMapper.convertValue(declared, McpSchema.ClientCapabilities.class)
				: McpSchema.ClientCapabilities.builder().build();
		Object info = meta.get(META_CLIENT_INFO);
		McpSchema.Implementation clientInfo = (info != null)
				? this.jsonMapper.convertValue(info, McpSchema.Implementation.class) : null;
		return new McpSyncServerExchange(new McpAsyncServerExchange(null, session(id, cancellation), capabilities,
				clientInfo, McpRequestContext.ofTask(principal, baseUrl, cancellation).transportContext()));
	}

	private TaskSupport taskSupport(String toolName) {
		TaskSupport support = this.taskSupport.apply(toolName);
		return (support != null) ? support : TaskSupport.FORBIDDEN;
	}

	// Whether the request's _meta client capabilities carry the extension
	private static boolean negotiated(Map<?, ?> params) {
		return meta(params).get(META_CLIENT_CAPABILITIES) instanceof Map<?, ?> capabilities
				&& capabilities.get("extensions") instanceof Map<?, ?> extensions && extensions.containsKey(EXTENSION);
	}

	private static Map<?, ?> meta(Map<?, ?> params) {
		return (params.get("_meta") instanceof Map<?, ?> meta) ? meta : Map.of();
	}

	private static @Nullable String owner(@Nullable ToolPrincipal principal) {
		return (principal != null) ? principal.name() : null;
	}

	private static Map<String, Object> internalError() {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("code", McpSchema.ErrorCodes.INTERNAL_ERROR);
		error.put("message", "Internal error: the call failed");
		return error;
	}

	private static McpError missingExtension(String why) {
		return new McpError(
				new McpSchema.JSONRPCResponse.JSONRPCError(StatelessMcpSession.MISSING_REQUIRED_CLIENT_CAPABILITY,
						"Missing required client capability: " + why + ", and the request did not declare " + EXTENSION,
						Map.of("requiredCapabilities", Map.of("extensions", Map.of(EXTENSION, Map.of())))));
	}

	private static McpError invalidParams(String message) {
		return new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(HardenedStreamableHttpTransport.INVALID_PARAMS,
				message, null));
	}

}
