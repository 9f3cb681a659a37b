package dev.agentmiddleware.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.SafetyLevel;
import dev.agentmiddleware.tool.ToolDescriptor;
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
 * The cost of the chain itself: the same small tool called directly and through a pipeline of 0, 1, 5 and 10
 * pass-through middleware. The tool's descriptor declares its {@code String} result, as an {@code @AgentTool}'s does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PipelineBenchmark {

	@Param({ "0", "1", "5", "10" })
	public int layers;

	private final BenchmarkTools tools = new BenchmarkTools();

	private final String text = "hello";

	private ToolPipeline pipeline;

	private ToolInvocation invocation;

	@Setup
	public void setUp() {
		ToolDescriptor echo = ToolDescriptor.builder("echo")
			.safety(SafetyLevel.SAFE)
			.readOnly(true)
			.resultType(String.class)
			.build();
		List<ToolMiddleware> middleware = new ArrayList<>();
		for (int i = 0; i < this.layers; i++) {
			middleware.add(new PassThrough());
		}
		this.pipeline = ToolPipeline.builder(echo, (invocation) -> this.tools.echo((String) invocation.argument("text")))
			.middleware(middleware)
			.build();
		this.invocation = ToolInvocation.builder(echo).argument("text", this.text).build();
	}

	@Benchmark
	public String direct() {
		return this.tools.echo(this.text);
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
