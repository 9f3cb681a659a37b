package dev.agentmiddleware.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What reading a call's outcome costs per call: the small tool of
 * {@link PipelineBenchmark} watched by the observer tier (one synchronous observer that
 * only consumes the record), and additionally by the observation built-in (an observation
 * registry with one handler that does nothing). Its allocation per call is where a
 * per-call copy of the invocation, made to carry per-call state, shows.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ObservedCallBenchmark {

	/**
	 * {@code observers}: the observer tier only; {@code observers+observation}: with the
	 * observation built-in.
	 */
	@Param({ "observers", "observers+observation" })
	public String readers;

	private final BenchmarkTools tools = new BenchmarkTools();

	private ToolCallObservers observers;

	private ToolPipeline pipeline;

	private ToolInvocation invocation;

	@Setup
	public void setUp(Blackhole blackhole) {
		ToolDescriptor echo = ToolDescriptor.builder("echo").safety(SafetyLevel.SAFE).readOnly(true).build();
		this.observers = ToolCallObservers.builder().observer(new ToolCallObserver() {

			@Override
			public void onToolCall(ToolCallRecord record) {
				blackhole.consume(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}

		}).build();
		ToolPipeline.Builder builder = ToolPipeline.builder(echo, PipelineBenchmark.handler(this.tools))
			.observers(this.observers);
		if (this.readers.contains("observation")) {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new ObservationHandler<>() {

				@Override
				public boolean supportsContext(Observation.Context context) {
					return true;
				}

			});
			builder.middleware(ObservationMiddleware.of(registry));
		}
		this.pipeline = builder.build();
		this.invocation = PipelineBenchmark.invocation(echo, "hello");
	}

	@TearDown
	public void tearDown() {
		this.observers.close();
	}

	@Benchmark
	public @Nullable Object observedCall() throws Exception {
		return this.pipeline.call(this.invocation);
	}

}
