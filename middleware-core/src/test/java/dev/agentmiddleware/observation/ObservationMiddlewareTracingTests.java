package dev.agentmiddleware.observation;

import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.testsupport.OtelTracing;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.opentelemetry.sdk.trace.ReadableSpan;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ObservationMiddleware} with Micrometer Tracing on the OpenTelemetry SDK: a call
 * made inside an observation (a {@code ChatClient}'s {@code spring.ai.tool}) is a span of
 * that observation's trace, child of its span, whether the whole call or only the tool's
 * run is observed.
 */
class ObservationMiddlewareTracingTests {

	private static final ToolDescriptor WEATHER = ToolDescriptor.builder("get_weather").build();

	private final OtelTracing tracing = new OtelTracing();

	@Test
	void aCallInsideAnObservationContinuesItsTrace() throws Exception {
		assertCallIsChildOfTheCurrentObservation(ObservationMiddleware.of(this.tracing.registry()));
	}

	@Test
	void aCallObservedOnlyWhenItReachesTheToolContinuesTheTraceToo() throws Exception {
		assertCallIsChildOfTheCurrentObservation(ObservationMiddleware.builder()
			.registry(this.tracing.registry())
			.meterRegistry(new SimpleMeterRegistry())
			.build());
	}

	@Test
	void aCallOutsideAnyObservationStartsATrace() throws Exception {
		ToolPipeline pipeline = ToolPipeline.builder(WEATHER, (invocation) -> "Sunny")
			.middleware(ObservationMiddleware.of(this.tracing.registry()))
			.build();
		pipeline.call(ToolInvocation.builder(WEATHER).build());
		ReadableSpan call = this.tracing.span("execute_tool get_weather");
		assertThat(call.getParentSpanContext().isValid()).isFalse();
	}

	private void assertCallIsChildOfTheCurrentObservation(ObservationMiddleware middleware) throws Exception {
		ToolPipeline pipeline = ToolPipeline.builder(WEATHER, (invocation) -> {
			// The tool runs in the call's span
			return this.tracing.tracer().currentSpan().context().traceId();
		}).middleware(middleware).build();
		Observation chat = Observation.createNotStarted("spring.ai.tool", this.tracing.registry()).start();
		Object traceIdSeenByTool;
		try (Observation.Scope scope = chat.openScope()) {
			traceIdSeenByTool = pipeline.call(ToolInvocation.builder(WEATHER).build());
		}
		finally {
			chat.stop();
		}
		ReadableSpan outer = this.tracing.span("spring.ai.tool");
		ReadableSpan call = this.tracing.span("execute_tool get_weather");
		assertThat(call.getSpanContext().getTraceId()).isEqualTo(outer.getSpanContext().getTraceId())
			.isEqualTo(traceIdSeenByTool);
		assertThat(call.getParentSpanContext().getSpanId()).isEqualTo(outer.getSpanContext().getSpanId());
	}

}
