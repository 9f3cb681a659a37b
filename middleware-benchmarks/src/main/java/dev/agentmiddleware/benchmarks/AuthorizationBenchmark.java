package dev.agentmiddleware.benchmarks;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
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
 * What per-tool authorization costs per call: the {@code echo} tool of
 * {@link PipelineBenchmark} through a pipeline without the authorization middleware and
 * through one with it. For a tool that requires no authority the middleware returns the
 * next handler when the pipeline is built, so both pipelines are the same handler; for a
 * tool that requires one, each call checks that the caller (who holds it) has it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AuthorizationBenchmark {

	/** Whether the authorization middleware is in the chain. */
	@Param({ "absent", "enabled" })
	public String authorization;

	private final BenchmarkTools tools = new BenchmarkTools();

	private ToolPipeline open;

	private ToolInvocation openInvocation;

	private ToolPipeline guarded;

	private ToolInvocation guardedInvocation;

	@Setup
	public void setUp() {
		ToolDescriptor echo = ToolDescriptor.builder("echo")
			.safety(SafetyLevel.SAFE)
			.readOnly(true)
			.resultType(String.class)
			.build();
		ToolDescriptor guardedEcho = ToolDescriptor.builder("guarded_echo")
			.safety(SafetyLevel.SAFE)
			.readOnly(true)
			.resultType(String.class)
			.authorities("SCOPE_echo")
			.build();
		ToolPrincipal caller = ToolPrincipal.of("alice", Set.of("SCOPE_echo", "SCOPE_files.read", "ROLE_USER"));
		this.open = pipeline(echo);
		this.openInvocation = ToolInvocation.builder(echo)
			.arguments(PipelineBenchmark.invocation(echo, "hello").arguments())
			.principal(caller)
			.build();
		this.guarded = pipeline(guardedEcho);
		this.guardedInvocation = ToolInvocation.builder(guardedEcho)
			.arguments(PipelineBenchmark.invocation(guardedEcho, "hello").arguments())
			.principal(caller)
			.build();
	}

	private ToolPipeline pipeline(ToolDescriptor tool) {
		ToolPipeline.Builder builder = ToolPipeline.builder(tool, PipelineBenchmark.handler(this.tools));
		if ("enabled".equals(this.authorization)) {
			builder.middleware(List.of(AuthorizationMiddleware.builder().build()));
		}
		return builder.build();
	}

	@Benchmark
	public @Nullable Object toolRequiringNothing() throws Exception {
		return this.open.call(this.openInvocation);
	}

	@Benchmark
	public @Nullable Object toolRequiringAnAuthority() throws Exception {
		return this.guarded.call(this.guardedInvocation);
	}

}
