package dev.agentmiddleware.autoconfigure.mcp;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.autoconfigure.internal.ToolResultText;
import dev.agentmiddleware.autoconfigure.springai.GovernedToolCallback;
import dev.agentmiddleware.autoconfigure.springai.ToolErrorFormatter;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.CallResumption;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolInputRequiredException;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolProgress;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationView;
import io.micrometer.observation.transport.ReceiverContext;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.mcp.McpToolUtils;

/**
 * Runs MCP {@code tools/call} requests of one registered tool (an {@code @AgentTool}, or
 * a Spring AI tool put under governance) through its pipeline, and describes the tool as
 * an MCP tool: name, {@code title}, description, input schema, {@code outputSchema} for
 * results that are JSON objects, and the annotations {@code readOnlyHint},
 * {@code destructiveHint} (a dangerous tool that does not only read),
 * {@code idempotentHint} and {@code openWorldHint} taken from its declaration, and its
 * {@code icons} ({@link dev.agentmiddleware.spring.AgentTool#icons()}, or those of
 * configuration).
 *
 * <p>
 * The request's arguments map is handed to the pipeline unbound: the pipeline binds it
 * inside its observer tier, so a call refused for its arguments is logged, counted and
 * observed with the outcome {@code invalid_arguments}. The call carries the MCP session
 * id, the principal the transport saw, and the exchange under
 * {@link McpInvocationAttributes#EXCHANGE}. It runs with the request's
 * {@link CallCancellation}, which the client's {@code notifications/cancelled} and a
 * client gone away cancel (the transport then sends no response). Any failure becomes a
 * result with {@code isError} set, whose text comes from the {@link ToolErrorFormatter},
 * except on a request of MCP {@code 2026-07-28}, where a tool that failed for want of a
 * client capability the request did not declare (an uncaught
 * {@code ToolClientUnavailableException}) fails the request with the error
 * {@code -32021}, as the revision asks. A structured result is returned twice, as
 * {@code structuredContent} and as its JSON text, as the MCP specification asks. A rich
 * result ({@link ToolContents}) is returned as a content block per part
 * ({@link McpToolContents}).
 *
 * <p>
 * A {@code 2026-07-28} call, served in rounds ({@link McpInputRound}), carries the
 * round's {@link CallResumption}: what the call carries to its retry (the id of its
 * pending approval request) is sealed into the {@code requestState}.
 *
 * <p>
 * A request with a {@code progressToken} ({@code _meta.progressToken}) carries a
 * {@link ProgressTarget} that sends {@code notifications/progress} of that token on the
 * request's response stream, at most one per progress interval: a call waiting for
 * approval says what it waits for, and a tool reports through its {@link ToolProgress}
 * parameter. A request without one carries none, and nothing is sent.
 *
 * <p>
 * Every call carries the client that made it ({@link ToolClient#ATTRIBUTE}, an
 * {@link McpToolClient}): a tool with a {@link ToolClient} parameter logs to it
 * ({@code notifications/message}), asks its user ({@code elicitation/create}) and its
 * model ({@code sampling/createMessage}) on the request's response stream, as far as the
 * client declared the capabilities.
 *
 * <p>
 * A request that carries the caller's W3C trace context ({@code traceparent},
 * {@code tracestate} and {@code baggage} in {@code _meta}, or, where {@code _meta} has
 * none and no receiver observation such as the HTTP server's continued them already, in
 * the HTTP headers of its POST) runs in an observation {@code mcp.server.operation} whose
 * carrier is that context: with Micrometer Tracing, a server span
 * {@code tools/call <tool>} in the caller's trace, with the tool call's span as its
 * child, and the call's log line and audit record carry the caller's trace id. A
 * malformed trace context is ignored. <pre>{@code
 * McpServerFeatures.SyncToolSpecification spec = new McpToolHandler(tool, errorFormatter, jsonMapper).specification();
 * }</pre>
 */
public final class McpToolHandler
		implements BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> {

	private static final Logger logger = LoggerFactory.getLogger(McpToolHandler.class);

	private final RegisteredTool tool;

	private final ToolErrorFormatter errorFormatter;

	private final JsonMapper jsonMapper;

	private final McpSchema.Tool definition;

	private final boolean structured;

	private final Duration progressInterval;

	private final ObservationRegistry observationRegistry;

	private final boolean inputBeforeTask;

	/**
	 * Creates the handler of one tool.
	 * @param tool the registered tool
	 * @param errorFormatter turns failures into text for the client
	 * @param jsonMapper converts results to JSON
	 */
	public McpToolHandler(RegisteredTool tool, ToolErrorFormatter errorFormatter, JsonMapper jsonMapper) {
		this(tool, errorFormatter, jsonMapper, McpToolIcons.fromAnnotation(tool));
	}

	/**
	 * Creates the handler of one tool with the icons to publish.
	 * @param tool the registered tool
	 * @param errorFormatter turns failures into text for the client
	 * @param jsonMapper converts results to JSON
	 * @param icons the tool's icons, empty for none
	 */
	public McpToolHandler(RegisteredTool tool, ToolErrorFormatter errorFormatter, JsonMapper jsonMapper,
			List<McpSchema.Icon> icons) {
		this(tool, errorFormatter, jsonMapper, icons, ProgressTarget.DEFAULT_INTERVAL);
	}

	/**
	 * Creates the handler of one tool with the icons to publish and the least time
	 * between two progress notifications of a call.
	 * @param tool the registered tool
	 * @param errorFormatter turns failures into text for the client
	 * @param jsonMapper converts results to JSON
	 * @param icons the tool's icons, empty for none
	 * @param progressInterval the least time between two progress notifications of a
	 * call; positive
	 */
	public McpToolHandler(RegisteredTool tool, ToolErrorFormatter errorFormatter, JsonMapper jsonMapper,
			List<McpSchema.Icon> icons, Duration progressInterval) {
		this(tool, errorFormatter, jsonMapper, icons, progressInterval, ObservationRegistry.NOOP);
	}

	/**
	 * Creates the handler of one tool with the icons to publish, the least time between
	 * two progress notifications of a call, and the registry of the observations of
	 * requests that continue a caller's trace.
	 * @param tool the registered tool
	 * @param errorFormatter turns failures into text for the client
	 * @param jsonMapper converts results to JSON
	 * @param icons the tool's icons, empty for none
	 * @param progressInterval the least time between two progress notifications of a
	 * call; positive
	 * @param observationRegistry the registry; with the no-op registry a caller's trace
	 * context is not read
	 */
	public McpToolHandler(RegisteredTool tool, ToolErrorFormatter errorFormatter, JsonMapper jsonMapper,
			List<McpSchema.Icon> icons, Duration progressInterval, ObservationRegistry observationRegistry) {
		this.tool = tool;
		this.observationRegistry = observationRegistry;
		this.progressInterval = progressInterval;
		this.errorFormatter = errorFormatter;
		this.jsonMapper = jsonMapper;
		ToolDescriptor descriptor = tool.descriptor();
		Method method = tool.method();
		Type resultType = (method != null) ? method.getGenericReturnType() : descriptor.resultType();
		Map<String, Object> outputSchema = ToolOutputSchema.of(resultType, jsonMapper);
		this.structured = outputSchema != null;
		this.definition = definition(descriptor, jsonMapper, outputSchema, icons);
		AgentTool annotation = (method != null) ? ToolNames.annotation(method) : null;
		this.inputBeforeTask = annotation != null && annotation.inputBeforeTask();
	}

	@SuppressWarnings("unchecked")
	private static McpSchema.Tool definition(ToolDescriptor descriptor, JsonMapper jsonMapper,
			@Nullable Map<String, Object> outputSchema, List<McpSchema.Icon> icons) {
		McpSchema.ToolAnnotations annotations = McpSchema.ToolAnnotations.builder()
			.title(descriptor.title())
			.readOnlyHint(descriptor.readOnly())
			.destructiveHint(!descriptor.readOnly() && descriptor.safety() == SafetyLevel.DANGEROUS)
			.idempotentHint(descriptor.readOnly() || descriptor.idempotent())
			.openWorldHint(descriptor.openWorld())
			.build();
		McpSchema.Tool.Builder builder = McpSchema.Tool.builder()
			.name(descriptor.name())
			.title(descriptor.title())
			.description(descriptor.description())
			.inputSchema(jsonMapper.readValue(descriptor.inputSchema(), Map.class))
			.annotations(annotations);
		if (outputSchema != null) {
			builder.outputSchema(outputSchema);
		}
		if (!icons.isEmpty()) {
			builder.icons(List.copyOf(icons));
		}
		return builder.build();
	}

	/**
	 * The MCP tool specification: the description above with this handler.
	 * @return the specification to publish on an MCP server
	 */
	public McpServerFeatures.SyncToolSpecification specification() {
		return McpServerFeatures.SyncToolSpecification.builder().tool(this.definition).callHandler(this).build();
	}

	@Override
	public McpSchema.CallToolResult apply(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
		// What the transport knows of the request, read once
		McpRequestContext context = McpRequestContext.of(exchange.transportContext());
		try {
			String sessionId = context.sessionId();
			ToolInvocation.Builder invocation = this.tool.unboundInvocation(request.arguments())
				.source(InvocationSource.MCP)
				.sessionId((sessionId != null) ? sessionId : exchange.sessionId())
				.principal(context.principal())
				.attribute(McpInvocationAttributes.EXCHANGE, exchange)
				.attribute(ToolClient.ATTRIBUTE,
						new McpToolClient(exchange, this.tool.name(), context.serverRequests()));
			McpInputRound round = context.round();
			if (round != null) {
				// A 2026-07-28 call: what it carries to its retry goes into the
				// requestState
				invocation.attribute(CallResumption.ATTRIBUTE, round.resumption());
			}
			Object progressToken = request.progressToken();
			if (progressToken != null) {
				invocation.attribute(ProgressTarget.ATTRIBUTE, ProgressTarget
					.of(progressNotifications(exchange, progressToken), this.progressInterval, Clock.systemUTC()));
			}
			if (this.tool.method() == null) {
				// A governed Spring AI tool gets the tool context Spring AI's own MCP
				// server would give it
				invocation.attribute(GovernedToolCallback.TOOL_CONTEXT,
						new ToolContext(Map.of(McpToolUtils.TOOL_CONTEXT_MCP_EXCHANGE_KEY, exchange)));
			}
			// A call the client cancels (notifications/cancelled, or gone away) is
			// cancelled through the chain
			CallCancellation cancellation = context.cancellation();
			McpTraceContext trace = traceContext(context, request);
			return success((trace != null) ? callInTrace(invocation.build(), cancellation, trace)
					: call(invocation.build(), cancellation));
		}
		catch (ToolInputRequiredException ex) {
			// Not a failure: the 2026-07-28 request answers input_required
			// (StatelessMcpInputs), and the retry runs the call again
			throw ex;
		}
		catch (Exception ex) {
			McpError missingCapability = McpMissingClientCapability.of(context, ex);
			if (missingCapability != null) {
				throw missingCapability;
			}
			String text = this.errorFormatter.format(this.tool.name(), ex);
			logger.debug("Tool '{}' failed; the MCP client gets: {}", this.tool.name(), text, ex);
			return McpSchema.CallToolResult.builder().addTextContent(text).isError(true).build();
		}
	}

	private @Nullable Object call(ToolInvocation invocation, @Nullable CallCancellation cancellation) throws Exception {
		ToolPipeline pipeline = this.tool.pipeline();
		return (cancellation != null) ? pipeline.call(invocation, cancellation) : pipeline.call(invocation);
	}

	// The whole call, its log line and audit record included, runs in the caller's trace
	private @Nullable Object callInTrace(ToolInvocation invocation, @Nullable CallCancellation cancellation,
			McpTraceContext trace) throws Exception {
		Observation observation = trace.observation(this.tool.name(), this.observationRegistry).start();
		try (Observation.Scope scope = observation.openScope()) {
			return call(invocation, cancellation);
		}
		catch (Exception ex) {
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

	// The caller's trace context: _meta's, else the HTTP headers' unless a receiver
	// observation (the HTTP server's, which continued them already) is in scope
	private @Nullable McpTraceContext traceContext(McpRequestContext context, McpSchema.CallToolRequest request) {
		if (this.observationRegistry.isNoop()) {
			return null;
		}
		McpTraceContext fromMeta = McpTraceContext.ofMeta(request.meta());
		if (fromMeta != null || inReceiverObservation(this.observationRegistry.getCurrentObservation())) {
			return fromMeta;
		}
		return context.trace();
	}

	private static boolean inReceiverObservation(@Nullable ObservationView observation) {
		for (ObservationView view = observation; view != null; view = view.getContextView().getParentObservation()) {
			if (view.getContextView() instanceof ReceiverContext) {
				return true;
			}
		}
		return false;
	}

	// Sends each report as a notifications/progress of the request's token, on the
	// request's response stream
	private static ToolProgress progressNotifications(McpSyncServerExchange exchange, Object progressToken) {
		return (progress, total, message) -> exchange
			.progressNotification(new McpSchema.ProgressNotification(progressToken, progress, total, message, null));
	}

	private McpSchema.CallToolResult success(@Nullable Object result) {
		if (result instanceof ToolContents contents) {
			return McpToolContents.result(contents);
		}
		if (!this.structured) {
			return McpSchema.CallToolResult.builder()
				.addTextContent(ToolResultText.of(this.tool.descriptor(), result, this.jsonMapper))
				.build();
		}
		JsonNode tree = this.jsonMapper.valueToTree(result);
		Object structuredContent = tree.isObject() ? this.jsonMapper.treeToValue(tree, Map.class) : Map.of();
		return McpSchema.CallToolResult.builder()
			.content(List.of(new McpSchema.TextContent(tree.toString())))
			.structuredContent(structuredContent)
			.build();
	}

	// Whether a call that runs as a task asks its questions before the task
	// (AgentTool#inputBeforeTask, StatelessMcpTaskEscalation)
	boolean inputBeforeTask() {
		return this.inputBeforeTask;
	}

	@Override
	public String toString() {
		return "McpToolHandler[" + this.tool.name() + "]";
	}

}
