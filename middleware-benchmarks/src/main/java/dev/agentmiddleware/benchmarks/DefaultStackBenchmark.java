package dev.agentmiddleware.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * The JSON path with the default stack of built-ins (observation on a
 * {@code SimpleMeterRegistry}, logging at INFO with its logger off, cache, retry, a rate
 * limit that is never reached) against Spring AI's {@code MethodToolCallback} of the same
 * method: on a cache miss (distinct arguments every call) and on a cache hit.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DefaultStackBenchmark {

	@Param({ "echo", "plan_trip" })
	public String tool;

	private AnnotationConfigApplicationContext context;

	private ToolCallback ours;

	private ToolCallback springAi;

	private final ToolContext session = new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "benchmark"));

	private String[] distinct;

	private String same;

	private int next;

	@Setup
	public void setUp() {
		this.context = BenchmarkContexts.defaultStack();
		this.ours = BenchmarkContexts.callback(this.context, this.tool);
		this.springAi = JsonPathBenchmark.springAiCallback(this.tool);
		this.distinct = Arguments.distinct(this.tool);
		this.same = Arguments.same(this.tool);
	}

	@TearDown
	public void tearDown() {
		this.context.close();
	}

	@Benchmark
	public String cacheMiss() {
		return this.ours.call(nextDistinct(), this.session);
	}

	@Benchmark
	public String springAiDistinctArguments() {
		return this.springAi.call(nextDistinct());
	}

	@Benchmark
	public String cacheHit() {
		return this.ours.call(this.same, this.session);
	}

	private String nextDistinct() {
		String json = this.distinct[this.next];
		this.next = (this.next + 1) & (Arguments.COUNT - 1);
		return json;
	}

}
