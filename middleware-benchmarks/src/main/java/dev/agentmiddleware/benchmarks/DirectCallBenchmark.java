package dev.agentmiddleware.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The anchors of {@link PipelineBenchmark}: the small tool called as a Java method, and
 * its handler (which reads the argument from the invocation) called without any pipeline.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DirectCallBenchmark {

	private final BenchmarkTools tools = new BenchmarkTools();

	private final String text = "hello";

	private ToolHandler handler;

	private ToolInvocation invocation;

	@Setup
	public void setUp() {
		this.handler = PipelineBenchmark.handler(this.tools);
		this.invocation = PipelineBenchmark.invocation(ToolDescriptor.builder("echo").build(), this.text);
	}

	@Benchmark
	public String direct() {
		return this.tools.echo(this.text);
	}

	@Benchmark
	public @Nullable Object handler() throws Exception {
		return this.handler.handle(this.invocation);
	}

}
