package dev.agentmiddleware.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Micrometer Tracing on the OpenTelemetry SDK, wired as Spring Boot wires it (W3C trace
 * context and baggage; the propagating receiver and sender handlers before the default
 * one), with an observation registry and the ended spans. Needs
 * {@code io.micrometer:micrometer-tracing-bridge-otel} on the test classpath (an optional
 * dependency of this module). <pre>{@code
 * OtelTracing tracing = new OtelTracing();
 * Observation.createNotStarted("work", tracing.registry()).observe(() -> ...);
 * assertThat(tracing.span("work").getParentSpanContext().isValid()).isFalse();
 * }</pre>
 */
public final class OtelTracing {

	private final List<ReadableSpan> spans = new CopyOnWriteArrayList<>();

	private final OtelTracer tracer;

	private final ObservationRegistry registry = ObservationRegistry.create();

	/**
	 * Starts a tracer whose ended spans are kept.
	 */
	public OtelTracing() {
		SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(new Collector(this.spans)).build();
		io.opentelemetry.api.trace.Tracer otelTracer = provider.get("test");
		ContextPropagators propagators = ContextPropagators.create(TextMapPropagator
			.composite(W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance()));
		this.tracer = new OtelTracer(otelTracer, new OtelCurrentTraceContext(), (event) -> {
		});
		OtelPropagator propagator = new OtelPropagator(propagators, otelTracer);
		this.registry.observationConfig()
			.observationHandler(new FirstMatchingCompositeObservationHandler(
					new PropagatingSenderTracingObservationHandler<>(this.tracer, propagator),
					new PropagatingReceiverTracingObservationHandler<>(this.tracer, propagator),
					new DefaultTracingObservationHandler(this.tracer)));
	}

	/**
	 * The tracer.
	 * @return the tracer
	 */
	public OtelTracer tracer() {
		return this.tracer;
	}

	/**
	 * The observation registry the tracing handlers are registered with.
	 * @return the registry
	 */
	public ObservationRegistry registry() {
		return this.registry;
	}

	/**
	 * The spans ended so far, in the order they ended.
	 * @return the spans
	 */
	public List<ReadableSpan> spans() {
		return this.spans;
	}

	/**
	 * The first ended span of a name.
	 * @param name the span's name
	 * @return the span
	 * @throws AssertionError when no span of that name ended
	 */
	public ReadableSpan span(String name) {
		return this.spans.stream()
			.filter((span) -> span.getName().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No span " + name + " in " + this.spans));
	}

	private record Collector(List<ReadableSpan> spans) implements SpanProcessor {

		@Override
		public void onStart(Context parentContext, ReadWriteSpan span) {
		}

		@Override
		public boolean isStartRequired() {
			return false;
		}

		@Override
		public void onEnd(ReadableSpan span) {
			this.spans.add(span);
		}

		@Override
		public boolean isEndRequired() {
			return true;
		}

	}

}
