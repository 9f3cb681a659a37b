package dev.agentmiddleware.observation;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.agentmiddleware.observation.AgentToolObservationConvention.AgentToolObservationContext;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * One tool's timers for the calls the tool did not run (cache hits, denials, rate limits,
 * other short-circuits): the same name and tags the meter handler gives the timer of an
 * observed call, registered once per outcome, source and error type and then reused, so
 * that timing such a call costs an array read and a record.
 */
final class ShortCircuitTimers {

	private static final int SOURCES = InvocationSource.values().length;

	private final MeterRegistry registry;

	private final AgentToolObservationConvention convention;

	// Calls that returned, by outcome and source.
	private final AtomicReferenceArray<@Nullable Timer> returned = new AtomicReferenceArray<>(
			CallOutcome.values().length * SOURCES);

	// Calls that threw, by outcome, source and error type.
	private final ConcurrentMap<FailedKey, Timer> failed = new ConcurrentHashMap<>();

	ShortCircuitTimers(MeterRegistry registry, AgentToolObservationConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	void record(ToolInvocation invocation, CallOutcome outcome, @Nullable Throwable error, long nanos) {
		timer(invocation, outcome, error).record(nanos, TimeUnit.NANOSECONDS);
	}

	private Timer timer(ToolInvocation invocation, CallOutcome outcome, @Nullable Throwable error) {
		if (error != null) {
			return this.failed.computeIfAbsent(new FailedKey(outcome, invocation.source(), error.getClass()),
					(key) -> register(invocation, outcome, error));
		}
		int index = outcome.ordinal() * SOURCES + invocation.source().ordinal();
		Timer timer = this.returned.get(index);
		if (timer == null) {
			// Registering twice yields the same timer, so a race only repeats the
			// look-up.
			timer = register(invocation, outcome, null);
			this.returned.set(index, timer);
		}
		return timer;
	}

	private Timer register(ToolInvocation invocation, CallOutcome outcome, @Nullable Throwable error) {
		AgentToolObservationContext context = new AgentToolObservationContext(invocation);
		context.setOutcome(outcome);
		context.setError(error);
		return register(this.registry, this.convention.getName(), this.convention.getLowCardinalityKeyValues(context),
				errorTag(error));
	}

	/**
	 * The timer the meter handler records an observed call in: the observation's name,
	 * its low-cardinality key values and an {@code error} tag.
	 * @param registry where it is registered
	 * @param name the observation's name
	 * @param lowCardinality its low-cardinality key values
	 * @param error the {@code error} tag ({@link #errorTag})
	 * @return the timer, registered once
	 */
	static Timer register(MeterRegistry registry, String name, Iterable<KeyValue> lowCardinality, String error) {
		Tags tags = Tags.empty();
		for (KeyValue keyValue : lowCardinality) {
			tags = tags.and(Tag.of(keyValue.getKey(), keyValue.getValue()));
		}
		return Timer.builder(name).tags(tags.and("error", error)).register(registry);
	}

	/**
	 * The {@code error} tag of a call's timer, as the meter handler gives it.
	 * @param error what the call threw, or {@code null}
	 * @return the simple name of its class, or {@code none}
	 */
	static String errorTag(@Nullable Throwable error) {
		return (error != null) ? error.getClass().getSimpleName() : "none";
	}

	private record FailedKey(CallOutcome outcome, InvocationSource source, Class<?> errorType) {
	}

}
