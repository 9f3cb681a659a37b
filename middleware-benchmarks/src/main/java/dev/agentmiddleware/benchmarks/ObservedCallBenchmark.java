package dev.agentmiddleware.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.observation.AgentToolObservationConvention.AgentToolObservationContext;
import dev.agentmiddleware.observation.AgentToolObservationConvention.DefaultAgentToolObservationConvention;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;
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
 * registry with one handler that does nothing), or by the observation built-in with
 * Micrometer Tracing on the OpenTelemetry SDK as Spring Boot wires it by default (a
 * parent-based sampler of 10 %, no exporter): {@code observers+tracing} with the default
 * convention, {@code observers+tracing+error-key} with a convention that adds the
 * {@code error} key the default one had until issue 32 (Micrometer Tracing makes a span
 * with that key an error, with an exception event, on every call). Its allocation per
 * call is where a per-call copy of the invocation, made to carry per-call state, shows.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ObservedCallBenchmark {

	/**
	 * {@code observers}: the observer tier only; {@code observers+observation}: with the
	 * observation built-in; {@code observers+tracing}: with the observation built-in on
	 * Micrometer Tracing; {@code observers+tracing+error-key}: the same with the
	 * {@code error} key.
	 */
	@Param({ "observers", "observers+observation", "observers+tracing", "observers+tracing+error-key" })
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
		if (this.readers.contains("tracing")) {
			SdkTracerProvider provider = SdkTracerProvider.builder()
				.setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(0.1)))
				.build();
			OtelTracer tracer = new OtelTracer(provider.get("benchmark"), new OtelCurrentTraceContext(), (event) -> {
			});
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
			builder.middleware(ObservationMiddleware.builder()
				.registry(registry)
				.convention(this.readers.endsWith("error-key") ? new WithErrorKey() : null)
				.build());
		}
		else if (this.readers.contains("observation")) {
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

	// The default keys and the error key the default convention had until issue 32
	static final class WithErrorKey extends DefaultAgentToolObservationConvention {

		@Override
		public KeyValues getLowCardinalityKeyValues(AgentToolObservationContext context) {
			return super.getLowCardinalityKeyValues(context).and(error(context));
		}

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
