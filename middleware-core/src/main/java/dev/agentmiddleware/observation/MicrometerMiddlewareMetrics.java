package dev.agentmiddleware.observation;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts {@link MiddlewareEvent}s as Micrometer counters: one counter per event, named
 * {@link MiddlewareEvent#meterName()} and tagged {@code agent.tool.name} (and
 * {@value #KIND_TAG} for an event counted by kind, such as
 * {@link MiddlewareEvent#PERSONAL_DATA_MASKED}). Counters are registered on first use and
 * then cached, so counting costs a map lookup and an increment. Thread-safe. <pre>{@code
 * MiddlewareMetrics metrics = new MicrometerMiddlewareMetrics(meterRegistry);
 * metrics.count(MiddlewareEvent.CACHE_HIT, "get_weather");
 * meterRegistry.get("agent.tool.cache.hits").tag("agent.tool.name", "get_weather").counter().count(); // 1.0
 * }</pre>
 */
public final class MicrometerMiddlewareMetrics implements MiddlewareMetrics {

	/** The tag carrying the tool's name. */
	public static final String TOOL_NAME_TAG = AgentToolObservationDocumentation.LowCardinalityKeyNames.TOOL_NAME
		.asString();

	/** The tag carrying the kind of an event counted by kind. */
	public static final String KIND_TAG = "kind";

	private final MeterRegistry registry;

	private final ConcurrentMap<String, Counter>[] counters;

	private final ConcurrentMap<String, ConcurrentMap<String, Counter>> kindCounters = new ConcurrentHashMap<>();

	/**
	 * Creates the metrics.
	 * @param registry where the counters are registered
	 */
	@SuppressWarnings("unchecked")
	public MicrometerMiddlewareMetrics(MeterRegistry registry) {
		this.registry = Objects.requireNonNull(registry, "registry");
		MiddlewareEvent[] events = MiddlewareEvent.values();
		this.counters = new ConcurrentMap[events.length];
		for (int i = 0; i < events.length; i++) {
			this.counters[i] = new ConcurrentHashMap<>();
		}
	}

	@Override
	public void count(MiddlewareEvent event, String toolName) {
		Counter counter = this.counters[event.ordinal()].get(toolName);
		if (counter == null) {
			counter = register(event, toolName);
		}
		counter.increment();
	}

	@Override
	public void count(MiddlewareEvent event, String toolName, String kind) {
		ConcurrentMap<String, Counter> byKind = this.kindCounters.computeIfAbsent(event.ordinal() + ":" + toolName,
				(key) -> new ConcurrentHashMap<>());
		Counter counter = byKind.get(kind);
		if (counter == null) {
			counter = byKind.computeIfAbsent(kind,
					(key) -> Counter.builder(event.meterName())
						.description(description(event))
						.tag(TOOL_NAME_TAG, toolName)
						.tag(KIND_TAG, key)
						.register(this.registry));
		}
		counter.increment();
	}

	private Counter register(MiddlewareEvent event, String toolName) {
		return this.counters[event.ordinal()].computeIfAbsent(toolName,
				(tool) -> Counter.builder(event.meterName())
					.description(description(event))
					.tag(TOOL_NAME_TAG, tool)
					.register(this.registry));
	}

	private static String description(MiddlewareEvent event) {
		return switch (event) {
			case CACHE_HIT -> "Tool calls answered from the cache";
			case CACHE_MISS -> "Tool calls the cache could not answer";
			case CACHE_EVICTION -> "Cached tool results evicted";
			case RATE_LIMIT_REJECTED -> "Tool calls rejected by a rate limit or call budget";
			case RETRY -> "Failed tool call attempts that were retried";
			case CRASH_RECOVERED -> "Tool session crashes recovered by a reset";
			case APPROVAL_REQUESTED -> "Tool call approvals requested";
			case OBSERVER_RECORD_DROPPED -> "Tool call records dropped by busy observers";
			case RESULT_REDACTED -> "Tool results whose secrets were redacted";
			case RESULT_TRUNCATED -> "Tool results cut to their size limit";
			case RESULT_REFUSED -> "Tool results refused by their size limit or a result guard";
			case PERSONAL_DATA_MASKED -> "Values of personal data masked in tool results, by kind";
		};
	}

}
