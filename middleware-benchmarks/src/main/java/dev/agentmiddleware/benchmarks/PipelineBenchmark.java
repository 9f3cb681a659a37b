package dev.agentmiddleware.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ToolArguments;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The cost of the chain itself: the small tool of {@link DirectCallBenchmark} through a
 * pipeline of 0, 1, 5 and 10 pass-through middleware, with the tool's result type
 * declared (checked after each layer) or not.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PipelineBenchmark {

	@Param({ "0", "1", "5", "10" })
	public int layers;

	/**
	 * Whether the tool declares its {@code String} result, as an {@code @AgentTool} does:
	 * results are then checked.
	 */
	@Param({ "true", "false" })
	public boolean typed;

	private final BenchmarkTools tools = new BenchmarkTools();

	private final String text = "hello";

	private ToolPipeline pipeline;

	private ToolInvocation invocation;

	@Setup
	public void setUp() {
		ToolDescriptor echo = ToolDescriptor.builder("echo")
			.safety(SafetyLevel.SAFE)
			.readOnly(true)
			.resultType(this.typed ? String.class : Object.class)
			.build();
		List<ToolMiddleware> middleware = new ArrayList<>();
		for (int i = 0; i < this.layers; i++) {
			middleware.add(new PassThrough());
		}
		this.pipeline = ToolPipeline.builder(echo, handler(this.tools)).middleware(middleware).build();
		this.invocation = invocation(echo, this.text);
	}

	static ToolHandler handler(BenchmarkTools tools) {
		return (invocation) -> tools.echo((String) invocation.argument("text"));
	}

	static ToolInvocation invocation(ToolDescriptor tool, String text) {
		return ToolInvocation.builder(tool).arguments(ToolArguments.names("text").with(new Object[] { text })).build();
	}

	@Benchmark
	public @Nullable Object pipeline() throws Exception {
		return this.pipeline.call(this.invocation);
	}

	/**
	 * A middleware that applies to every tool and only proceeds.
	 */
	static final class PassThrough implements ToolMiddleware {

		@Override
		public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
			return next::handle;
		}

		@Override
		public String name() {
			return "pass-through";
		}

	}

}
