package dev.agentmiddleware.benchmarks;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.sample.SampleApplication;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.ai.tool.support.ToolDefinitions;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.FileSystemUtils;
import org.springframework.util.ReflectionUtils;

/**
 * A {@code tools/call} round trip over loopback HTTP against the sample's MCP server,
 * started in-process with its own configuration: {@code governed} calls
 * {@link BenchmarkTools#echo}, an {@code @AgentTool} served through the middleware chain
 * (with the sample's stack for a read-only tool: observation, logging with the call log
 * off, the session cache, retry), {@code ungoverned} calls the same method published on
 * the same server through Spring AI ({@code MethodToolCallback} and {@code McpToolUtils})
 * without the chain. Both go through the MCP Java SDK's client and the server's
 * Streamable HTTP transport; every call has distinct arguments, so the cache never
 * answers. Run in sample mode, JMH reports the percentiles of the round trip.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// A fixed heap, the same for both: the tail should show the calls, not the heap growing
// under one of them.
@Fork(jvmArgsAppend = { "-Xms768m", "-Xmx768m" })
public class McpRoundTripBenchmark {

	static final String UNGOVERNED = "echo_ungoverned";

	private ConfigurableApplicationContext sample;

	private Path workspace;

	private McpSyncClient client;

	private long next;

	@Setup
	public void setUp() throws Exception {
		this.workspace = Files.createTempDirectory("mcp-round-trip");
		SpringApplication application = new SpringApplication(SampleApplication.class, UngovernedEcho.class);
		this.sample = application.run("--server.port=0", "--spring.main.banner-mode=off",
				"--sample.workspace.root=" + this.workspace.resolve("workspace"),
				"--spring.datasource.url=jdbc:h2:mem:mcp-round-trip", "--logging.level.root=WARN",
				"--logging.level.dev.agentmiddleware.logging.ToolCallLog=OFF",
				"--logging.level.dev.agentmiddleware.autoconfigure.mcp=ERROR");
		int port = ((WebServerApplicationContext) this.sample).getWebServer().getPort();
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + port)
			.endpoint("/mcp")
			.build();
		this.client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
		this.client.initialize();
		System.out.println(
				"Governed chain: " + this.sample.getBean(AgentToolRegistry.class).get("echo").pipeline().describe());
	}

	@TearDown
	public void tearDown() {
		this.client.closeGracefully();
		this.sample.close();
		FileSystemUtils.deleteRecursively(this.workspace.toFile());
	}

	@Benchmark
	public McpSchema.CallToolResult governed() {
		return call("echo");
	}

	@Benchmark
	public McpSchema.CallToolResult ungoverned() {
		return call(UNGOVERNED);
	}

	private McpSchema.CallToolResult call(String tool) {
		McpSchema.CallToolResult result = this.client
			.callTool(new McpSchema.CallToolRequest(tool, Map.of("text", "hello " + this.next++)));
		if (Boolean.TRUE.equals(result.isError())) {
			throw new IllegalStateException(tool + " failed: " + result.content());
		}
		return result;
	}

	/**
	 * The governed {@code echo} of {@link BenchmarkTools}, on its own.
	 */
	public static class EchoTool {

		private final BenchmarkTools tools = new BenchmarkTools();

		/**
		 * Echoes its argument.
		 * @param text the text
		 * @return the same text
		 */
		@AgentTool(description = "Echoes text", safety = SafetyLevel.SAFE, readOnly = true, idempotent = true)
		public String echo(String text) {
			return this.tools.echo(text);
		}

	}

	/**
	 * The governed tool's bean, and the same method published on the same MCP server
	 * through Spring AI only.
	 */
	@Configuration(proxyBeanMethods = false)
	static class UngovernedEcho {

		// echo alone: BenchmarkTools' plan_trip would clash with the sample's own
		@Bean
		EchoTool echoTool() {
			return new EchoTool();
		}

		@Bean
		List<McpServerFeatures.SyncToolSpecification> ungovernedEcho() {
			Method echo = ReflectionUtils.findMethod(BenchmarkTools.class, "echo", String.class);
			ToolDefinition definition = ToolDefinitions.from(echo);
			MethodToolCallback callback = MethodToolCallback.builder()
				.toolDefinition(ToolDefinition.builder()
					.name(UNGOVERNED)
					.description(definition.description())
					.inputSchema(definition.inputSchema())
					.build())
				.toolMethod(echo)
				.toolObject(new BenchmarkTools())
				.build();
			return List.of(McpToolUtils.toSyncToolSpecification(callback));
		}

	}

}
