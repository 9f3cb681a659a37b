package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * How {@link StatelessMcpTasks} settles a task and whom it answers: a tool error
 * completes the task with {@code result.isError}, a handler that fails fails it with a
 * JSON-RPC error and no result, a tool that requires a task is refused without the
 * extension before it runs, and another principal's task is unknown.
 */
class StatelessMcpTasksTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final ToolPrincipal ALICE = ToolPrincipal.of("alice");

	private final MutableClock clock = new MutableClock();

	private final StatelessMcpTasks tasks = new StatelessMcpTasks(JSON, new InMemoryMcpTaskStore(this.clock),
			(tool) -> tool.startsWith("required") ? TaskSupport.REQUIRED : TaskSupport.OPTIONAL, Duration.ofHours(1),
			Duration.ofSeconds(1), Duration.ofMillis(20), this.clock);

	@Test
	void toolErrorCompletesTheTaskWithIsError() {
		String taskId = start(tool("erring",
				(exchange, request) -> McpSchema.CallToolResult.builder().addTextContent("no").isError(true).build()));
		Map<String, Object> done = awaitEnd(taskId);
		assertThat(done).containsEntry("status", "completed").doesNotContainKey("error");
		assertThat(map(done.get("result"))).containsEntry("isError", true);
	}

	@Test
	void handlerThatFailsFailsTheTaskWithAJsonRpcErrorAndNoResult() {
		String taskId = start(tool("panicking", (exchange, request) -> {
			throw new AssertionError("panic");
		}));
		Map<String, Object> done = awaitEnd(taskId);
		assertThat(done).containsEntry("status", "failed").doesNotContainKey("result");
		assertThat(map(done.get("error"))).containsEntry("code", McpSchema.ErrorCodes.INTERNAL_ERROR);
		String mcpErrorTask = start(tool("refusing", (exchange, request) -> {
			throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(-32000, "refused", null));
		}));
		assertThat(map(awaitEnd(mcpErrorTask).get("error"))).containsEntry("code", -32000)
			.containsEntry("message", "refused");
	}

	@Test
	void toolThatRequiresATaskIsRefusedWithoutTheExtensionBeforeItRuns() {
		AtomicBoolean ran = new AtomicBoolean();
		SyncToolSpecification required = tool("required_job", (exchange, request) -> {
			ran.set(true);
			return McpSchema.CallToolResult.builder().addTextContent("ran").build();
		});
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> this.tasks.runsAsTask(required, Map.of()))
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().code()).isEqualTo(-32021));
		assertThat(this.tasks.runsAsTask(tool("optional_job", null), Map.of())).isFalse();
		assertThat(this.tasks.runsAsTask(required, negotiated())).isTrue();
		assertThat(ran).isFalse();
	}

	@Test
	void taskOfAnotherPrincipalIsUnknown() {
		String taskId = start(
				tool("quick", (exchange, request) -> McpSchema.CallToolResult.builder().addTextContent("ok").build()));
		Map<String, Object> get = withTask(taskId);
		assertThat(this.tasks.answer("tasks/get", get, ALICE)).containsEntry("taskId", taskId);
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> this.tasks.answer("tasks/get", get, ToolPrincipal.of("mallory")))
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().code()).isEqualTo(-32602));
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> this.tasks.answer("tasks/cancel", get, null))
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().code()).isEqualTo(-32602));
	}

	@Test
	void questionAskedByATaskShowsItsParamsWithoutTheInternalInputKey() {
		String taskId = start(tool("asking", (exchange, request) -> {
			McpSchema.ElicitResult answer = exchange
				.createElicitation(McpSchema.ElicitFormRequest.builder("Go on?", Map.of("type", "object"))
					.meta(Map.of(McpInputRound.META_KEY, "go_on", "trace", "kept"))
					.build());
			return McpSchema.CallToolResult.builder().addTextContent(answer.action().name()).build();
		}));
		Map<String, Object> get = withTask(taskId);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "input_required".equals(this.tasks.answer("tasks/get", get, ALICE).get("status")));
		Map<String, Object> parked = this.tasks.answer("tasks/get", get, ALICE);
		Map<String, Object> inputRequests = map(parked.get("inputRequests"));
		assertThat(inputRequests).hasSize(1);
		Map<String, Object> params = map(map(inputRequests.values().iterator().next()).get("params"));
		assertThat(params).containsEntry("message", "Go on?");
		assertThat(map(params.get("_meta"))).containsOnlyKeys("trace");
		this.tasks.answer("tasks/cancel", get, ALICE);
	}

	private String start(SyncToolSpecification tool) {
		Map<String, Object> created = this.tasks.start(tool,
				new McpSchema.CallToolRequest(tool.tool().name(), Map.of()), negotiated(), ALICE, "http://localhost");
		assertThat(created).containsEntry("resultType", "task").containsEntry("status", "working");
		return (String) created.get("taskId");
	}

	private Map<String, Object> awaitEnd(String taskId) {
		Map<String, Object> get = withTask(taskId);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> !"working".equals(this.tasks.answer("tasks/get", get, ALICE).get("status")));
		return this.tasks.answer("tasks/get", get, ALICE);
	}

	private static SyncToolSpecification tool(String name,
			BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> handler) {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder(name).inputSchema(Map.of("type", "object")).build())
			.callHandler((handler != null) ? handler
					: (exchange, request) -> McpSchema.CallToolResult.builder().addTextContent("ok").build())
			.build();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Object value) {
		return (Map<String, Object>) value;
	}

	private static Map<String, Object> negotiated() {
		Map<String, Object> params = new LinkedHashMap<>();
		params.put("_meta", Map.of("io.modelcontextprotocol/clientCapabilities",
				Map.of("elicitation", Map.of(), "extensions", Map.of(StatelessMcpTasks.EXTENSION, Map.of()))));
		return params;
	}

	private static Map<String, Object> withTask(String taskId) {
		Map<String, Object> params = negotiated();
		params.put("taskId", taskId);
		return params;
	}

}
