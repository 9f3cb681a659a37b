package dev.agentmiddleware.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.retry.RetryMiddleware;
import dev.agentmiddleware.retry.RetryPolicy;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Throughput of our own part of the default stack, with one and two threads: the observer
 * tier (one synchronous observer), the per-call context, logging (its logger off), retry,
 * the argument binding step and the result check, around the small tool, with nothing
 * from Micrometer, Caffeine or Resilience4j. What these layers write per call is per call
 * or per thread, so two threads should give about twice the calls of one where two cores
 * are free; what keeps {@link DefaultStackThroughputBenchmark} from scaling is then the
 * libraries' shared state and the machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class OwnChainScalingBenchmark {

	private final BenchmarkTools tools = new BenchmarkTools();

	private ToolCallObservers observers;

	private ToolPipeline pipeline;

	private ToolDescriptor echo;

	@Setup
	public void setUp() {
		this.echo = ToolDescriptor.builder("echo")
			.safety(SafetyLevel.SAFE)
			.readOnly(true)
			.idempotent(true)
			.resultType(String.class)
			.build();
		this.observers = ToolCallObservers.builder().observer(new ToolCallObserver() {

			@Override
			public void onToolCall(ToolCallRecord record) {
				// Consumed by nothing: the record is the observer tier's work.
			}

			@Override
			public boolean synchronous() {
				return true;
			}

		}).build();
		this.pipeline = ToolPipeline.builder(this.echo, PipelineBenchmark.handler(this.tools))
			.middleware(List.of(LoggingMiddleware.builder().logger("benchmark.off").build(),
					RetryMiddleware.builder().policies((tool) -> RetryPolicy.defaults()).build()))
			.observers(this.observers)
			.build();
		((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("benchmark.off"))
			.setLevel(ch.qos.logback.classic.Level.OFF);
	}

	@TearDown
	public void tearDown() {
		this.observers.close();
	}

	@Benchmark
	@Threads(1)
	public @Nullable Object oneThread(Caller caller) throws Exception {
		return this.pipeline.call(caller.invocation(this));
	}

	@Benchmark
	@Threads(2)
	public @Nullable Object twoThreads(Caller caller) throws Exception {
		return this.pipeline.call(caller.invocation(this));
	}

	/**
	 * Each thread's own invocation.
	 */
	@State(Scope.Thread)
	public static class Caller {

		private @Nullable ToolInvocation invocation;

		ToolInvocation invocation(OwnChainScalingBenchmark benchmark) {
			ToolInvocation invocation = this.invocation;
			if (invocation == null) {
				invocation = PipelineBenchmark.invocation(benchmark.echo, "hello");
				this.invocation = invocation;
			}
			return invocation;
		}

	}

}
