package dev.agentmiddleware.autoconfigure.mcp;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.testsupport.OtelTracing;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.ReadableSpan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpTraceContext}.
 */
class McpTraceContextTests {

	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	private static final String SPAN_ID = "00f067aa0ba902b7";

	private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + SPAN_ID + "-01";

	@Test
	void readsTraceparentTracestateAndBaggageFromMeta() {
		McpTraceContext context = McpTraceContext.ofMeta(Map.of("traceparent", TRACEPARENT, "tracestate",
				"vendor=opaque", "baggage", "tenant=acme", "progressToken", 7));
		assertThat(context).isNotNull();
		assertThat(context.traceId()).isEqualTo(TRACE_ID);
		assertThat(context.fields()).containsOnly(Map.entry("traceparent", TRACEPARENT),
				Map.entry("tracestate", "vendor=opaque"), Map.entry("baggage", "tenant=acme"));
	}

	@Test
	void readsTheHttpHeaders() {
		Map<String, String> headers = Map.of("traceparent", TRACEPARENT);
		McpTraceContext context = McpTraceContext.ofHeaders(headers::get);
		assertThat(context).isNotNull();
		assertThat(context.fields()).containsOnlyKeys("traceparent");
	}

	@Test
	void isAbsentWithoutTraceparent() {
		assertThat(McpTraceContext.ofMeta(null)).isNull();
		assertThat(McpTraceContext.ofMeta(Map.of("tracestate", "vendor=opaque"))).isNull();
		assertThat(McpTraceContext.ofHeaders((name) -> null)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "garbage", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
			"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
			"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
			"00-00000000000000000000000000000000-00f067aa0ba902b7-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
			"00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\n",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1x" })
	void ignoresMalformedTraceparent(String traceparent) {
		assertThat(McpTraceContext.ofMeta(Map.of("traceparent", traceparent, "baggage", "tenant=acme"))).isNull();
		assertThat(McpTraceContext.ofHeaders(Map.of("traceparent", traceparent)::get)).isNull();
	}

	@Test
	void ignoresTraceparentThatIsNotText() {
		assertThat(McpTraceContext.ofMeta(Map.of("traceparent", List.of(TRACEPARENT)))).isNull();
		assertThat(McpTraceContext.ofMeta(Map.of("traceparent", 42))).isNull();
	}

	@Test
	void dropsMalformedTracestateAndBaggageButKeepsTheTraceparent() {
		Map<String, Object> meta = new HashMap<>();
		meta.put("traceparent", TRACEPARENT);
		meta.put("tracestate", "v=" + "x".repeat(511));
		meta.put("baggage", "tenant=caf\u00e9");
		McpTraceContext context = McpTraceContext.ofMeta(meta);
		assertThat(context).isNotNull();
		assertThat(context.fields()).containsOnlyKeys("traceparent");
		meta.put("tracestate", Map.of("not", "text"));
		meta.put("baggage", "b=" + "y".repeat(8191));
		assertThat(McpTraceContext.ofMeta(meta).fields()).containsOnlyKeys("traceparent");
	}

	@Test
	void neverShowsTheValuesItCarries() {
		McpTraceContext context = McpTraceContext
			.ofMeta(Map.of("traceparent", TRACEPARENT, "tracestate", "vendor=secret", "baggage", "user=alice"));
		assertThat(context.toString()).isEqualTo("McpTraceContext" + context.fields().keySet())
			.doesNotContain(TRACE_ID)
			.doesNotContain("secret")
			.doesNotContain("alice");
	}

	@Test
	void observationContinuesTheCallersTraceAndParentsTheToolCall() {
		OtelTracing tracing = new OtelTracing();
		McpTraceContext context = McpTraceContext.ofMeta(Map.of("traceparent", TRACEPARENT));
		Observation request = context.observation("get_weather", tracing.registry()).start();
		try (Observation.Scope scope = request.openScope()) {
			assertThat(tracing.tracer().currentSpan().context().traceId()).isEqualTo(TRACE_ID);
			// The tool call's observation, as ObservationMiddleware starts it: a child
			// of the current one
			Observation.createNotStarted("agent.tool.call", tracing.registry())
				.contextualName("execute_tool get_weather")
				.parentObservation(tracing.registry().getCurrentObservation())
				.observe(() -> {
				});
		}
		finally {
			request.stop();
		}
		ReadableSpan server = tracing.span("tools/call get_weather");
		assertThat(server.getKind()).isEqualTo(SpanKind.SERVER);
		assertThat(server.getSpanContext().getTraceId()).isEqualTo(TRACE_ID);
		assertThat(server.getParentSpanContext().getSpanId()).isEqualTo(SPAN_ID);
		assertThat(server.getParentSpanContext().isRemote()).isTrue();
		ReadableSpan call = tracing.span("execute_tool get_weather");
		assertThat(call.getSpanContext().getTraceId()).isEqualTo(TRACE_ID);
		assertThat(call.getParentSpanContext().getSpanId()).isEqualTo(server.getSpanContext().getSpanId());
	}

	@Test
	void observationIsNamedAndTaggedForMetrics() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		McpTraceContext.ofMeta(Map.of("traceparent", TRACEPARENT)).observation("get_weather", registry).observe(() -> {
		});
		TestObservationRegistryAssert.assertThat(registry)
			.hasObservationWithNameEqualTo("mcp.server.operation")
			.that()
			.hasContextualNameEqualTo("tools/call get_weather")
			.hasLowCardinalityKeyValue("mcp.method.name", "tools/call")
			.hasLowCardinalityKeyValue("agent.tool.name", "get_weather")
			.hasBeenStopped();
	}

}
