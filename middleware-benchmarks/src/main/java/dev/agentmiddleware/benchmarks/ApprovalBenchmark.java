package dev.agentmiddleware.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalRules;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
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
 * What the approval built-in costs a tool that needs no approval: the safe {@code echo}
 * tool of {@link PipelineBenchmark} through a pipeline without the approval middleware,
 * and through one with it enabled (policy {@code dangerous}, as by default). The
 * middleware returns the next handler for such a tool when the pipeline is built, so both
 * pipelines are the same handler and should cost the same.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ApprovalBenchmark {

	/** Whether the approval middleware is in the chain. */
	@Param({ "absent", "enabled" })
	public String approval;

	private final BenchmarkTools tools = new BenchmarkTools();

	private ToolPipeline pipeline;

	private ToolInvocation invocation;

	@Setup
	public void setUp() {
		ToolDescriptor echo = ToolDescriptor.builder("echo")
			.safety(SafetyLevel.SAFE)
			.readOnly(true)
			.resultType(String.class)
			.build();
		ToolPipeline.Builder builder = ToolPipeline.builder(echo, PipelineBenchmark.handler(this.tools));
		if ("enabled".equals(this.approval)) {
			builder.middleware(List.of(ApprovalMiddleware.builder()
				.policies(ApprovalRules.of(ApprovalRules.Mode.DANGEROUS, List.of(), List.of()))
				.build()));
		}
		this.pipeline = builder.build();
		this.invocation = PipelineBenchmark.invocation(echo, "hello");
	}

	@Benchmark
	public @Nullable Object safeTool() throws Exception {
		return this.pipeline.call(this.invocation);
	}

}
