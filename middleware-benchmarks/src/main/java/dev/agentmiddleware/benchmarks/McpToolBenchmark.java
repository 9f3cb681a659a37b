package dev.agentmiddleware.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.autoconfigure.mcp.McpToolHandler;
import dev.agentmiddleware.autoconfigure.springai.ToolErrorFormatter;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpLoggableSession;
import io.modelcontextprotocol.spec.McpSchema;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * An MCP {@code tools/call} as the server's tool handler receives it (the exchange and
 * the request with its arguments map), with no middleware applying: our
 * {@link McpToolHandler} against Spring AI's own {@code MethodToolCallback} of the same
 * method published through {@code McpToolUtils.toSyncToolSpecification}, for a one-string
 * argument and a ~200-byte object.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class McpToolBenchmark {

	@Param({ "echo", "plan_trip" })
	public String tool;

	private AnnotationConfigApplicationContext context;

	private McpSyncServerExchange exchange;

	private McpSchema.CallToolRequest request;

	private McpToolHandler ours;

	private java.util.function.BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> springAi;

	@Setup
	@SuppressWarnings("unchecked")
	public void setUp() {
		this.context = BenchmarkContexts.bare();
		JsonMapper jsonMapper = JsonMapper.shared();
		this.ours = new McpToolHandler(this.context.getBean(AgentToolRegistry.class).get(this.tool),
				this.context.getBean(ToolErrorFormatter.class), jsonMapper);
		this.springAi = McpToolUtils.toSyncToolSpecification(JsonPathBenchmark.springAiCallback(this.tool))
			.callHandler();
		String json = this.tool.equals("echo") ? BenchmarkTools.ECHO_JSON : BenchmarkTools.TRIP_JSON;
		this.request = new McpSchema.CallToolRequest(this.tool, jsonMapper.readValue(json, Map.class));
		this.exchange = new McpSyncServerExchange(new McpAsyncServerExchange("benchmark-session", new IdleSession(),
				new McpSchema.ClientCapabilities(null, null, null, null), new McpSchema.Implementation("jmh", "1"),
				McpTransportContext.EMPTY));
		check(this.ours.apply(this.exchange, this.request));
		check(this.springAi.apply(this.exchange, this.request));
	}

	private static void check(McpSchema.CallToolResult result) {
		if (Boolean.TRUE.equals(result.isError())) {
			throw new IllegalStateException("Benchmark call failed: " + result.content());
		}
	}

	@TearDown
	public void tearDown() {
		this.context.close();
	}

	@Benchmark
	public McpSchema.CallToolResult ourMcpToolHandler() {
		return this.ours.apply(this.exchange, this.request);
	}

	@Benchmark
	public McpSchema.CallToolResult springAiMcpToolUtils() {
		return this.springAi.apply(this.exchange, this.request);
	}

	/**
	 * The session behind the exchange: the tools never talk back to the client, so it
	 * does nothing.
	 */
	static final class IdleSession implements McpLoggableSession {

		@Override
		public <T> Mono<T> sendRequest(String method, Object requestParams, TypeRef<T> typeRef) {
			return Mono.empty();
		}

		@Override
		public Mono<Void> sendNotification(String method, Object params) {
			return Mono.empty();
		}

		@Override
		public Mono<Void> closeGracefully() {
			return Mono.empty();
		}

		@Override
		public void close() {
		}

		@Override
		public void setMinLoggingLevel(McpSchema.LoggingLevel minLoggingLevel) {
		}

		@Override
		public boolean isNotificationForLevelAllowed(McpSchema.LoggingLevel loggingLevel) {
			return false;
		}

	}

}
