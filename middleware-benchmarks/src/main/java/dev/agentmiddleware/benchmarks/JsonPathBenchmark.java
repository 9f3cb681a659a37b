package dev.agentmiddleware.benchmarks;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.ai.tool.support.ToolDefinitions;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.util.ReflectionUtils;

/**
 * The JSON path a model or MCP client takes: our {@code ToolCallback.call(json)} with no
 * middleware against Spring AI's {@code MethodToolCallback.call(json)} of the same
 * method, for a one-string argument and a ~200-byte object.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JsonPathBenchmark {

	@Param({ "echo", "plan_trip" })
	public String tool;

	private AnnotationConfigApplicationContext context;

	private ToolCallback ours;

	private ToolCallback springAi;

	private String json;

	@Setup
	public void setUp() {
		this.context = BenchmarkContexts.bare();
		this.ours = BenchmarkContexts.callback(this.context, this.tool);
		this.springAi = springAiCallback(this.tool);
		this.json = this.tool.equals("echo") ? BenchmarkTools.ECHO_JSON : BenchmarkTools.TRIP_JSON;
	}

	@TearDown
	public void tearDown() {
		this.context.close();
	}

	@Benchmark
	public String noMiddleware() {
		return this.ours.call(this.json);
	}

	@Benchmark
	public String springAiMethodToolCallback() {
		return this.springAi.call(this.json);
	}

	static ToolCallback springAiCallback(String tool) {
		String methodName = tool.equals("echo") ? "echo" : "planTrip";
		Method method = ReflectionUtils.findMethod(BenchmarkTools.class, methodName, (Class<?>[]) null);
		return MethodToolCallback.builder()
			.toolDefinition(ToolDefinitions.from(method))
			.toolMethod(method)
			.toolObject(new BenchmarkTools())
			.build();
	}

}
