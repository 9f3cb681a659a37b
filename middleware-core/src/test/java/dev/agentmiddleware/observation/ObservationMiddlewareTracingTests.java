package dev.agentmiddleware.observation;

import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.testsupport.OtelTracing;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link ObservationMiddleware} with Micrometer Tracing on the OpenTelemetry SDK: a call
 * made inside an observation (a {@code ChatClient}'s {@code spring.ai.tool}) is a span of
 * that observation's trace, child of its span, whether the whole call or only the tool's
 * run is observed; a span is an error only when its call failed.
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

	@Test
	void aSuccessfulCallIsASpanWithoutErrorOrExceptionEvent() throws Exception {
		ToolPipeline pipeline = ToolPipeline.builder(WEATHER, (invocation) -> "Sunny")
			.middleware(ObservationMiddleware.of(this.tracing.registry()))
			.build();
		pipeline.call(ToolInvocation.builder(WEATHER).build());
		SpanData call = this.tracing.span("execute_tool get_weather").toSpanData();
		assertThat(call.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
		assertThat(call.getEvents()).isEmpty();
		assertThat(call.getAttributes().get(AttributeKey.stringKey("error"))).isNull();
		assertThat(call.getAttributes().get(AttributeKey.stringKey("agent.tool.outcome"))).isEqualTo("succeeded");
	}

	@Test
	void aFailedCallIsASpanWithItsOwnErrorOnly() throws Exception {
		IllegalStateException failure = new IllegalStateException("service down");
		ToolPipeline pipeline = ToolPipeline.builder(WEATHER, (invocation) -> {
			throw failure;
		}).middleware(ObservationMiddleware.of(this.tracing.registry())).build();
		assertThatIllegalStateException().isThrownBy(() -> pipeline.call(ToolInvocation.builder(WEATHER).build()));
		SpanData call = this.tracing.span("execute_tool get_weather").toSpanData();
		assertThat(call.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
		assertThat(call.getEvents()).singleElement()
			.satisfies((event) -> assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.type")))
				.isEqualTo(IllegalStateException.class.getName()));
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
