package dev.agentmiddleware.tool;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The values a call carries from one round to its retry, on a protocol where a call that
 * needs something from outside ends, answers its client, and runs again from the start
 * when the client retries: MCP revision {@code 2026-07-28}, where a call answers
 * {@code input_required} and the client retries it with the answers and the echoed
 * {@code requestState}. The edge that serves such a call puts a resumption on it
 * ({@link #ATTRIBUTE}) with the values the previous round carried ({@link #carried}) and
 * seals the values this round {@link #carry carries} into the answer, so the retry,
 * served by any instance that shares the sealing key, finds them again. A call without
 * the attribute is served in one round and waits as long as it needs.
 *
 * <p>
 * The built-in use: a call that needs approval carries the id of its approval request, so
 * that the retry continues with that request (the same record in the approval store, the
 * same decision, one audit record) instead of asking again; and it waits for a decision
 * at most {@link #roundTime()} per round, then ends the round with a
 * {@link ToolInputRequiredException} so that its client retries. Values are short
 * strings, sealed and signed by the edge but readable by the client: never a secret.
 * Thread-safe. <pre>{@code
 * CallResumption resumption = invocation.attribute(CallResumption.ATTRIBUTE);
 * String requestId = (resumption != null) ? resumption.carried("approval.request") : null;
 * // ...
 * resumption.carry("approval.request", request.id());
 * }</pre>
 */
public final class CallResumption {

	/** The attribute of a call that is served in rounds. */
	public static final InvocationAttribute<CallResumption> ATTRIBUTE = InvocationAttribute.of("callResumption",
			CallResumption.class);

	/**
	 * The default time a round waits for something outside the call (an approval) before
	 * it ends and its client retries: 20 seconds, well below the 60 seconds clients
	 * usually give a request.
	 */
	public static final Duration DEFAULT_ROUND_TIME = Duration.ofSeconds(20);

	private final Map<String, String> carried;

	private final Map<String, String> toCarry;

	private final Duration roundTime;

	/**
	 * Creates the resumption of one round.
	 * @param carried the values the previous round carried, empty on the first round
	 * @param roundTime how long this round may wait for something outside the call;
	 * positive
	 */
	public CallResumption(Map<String, String> carried, Duration roundTime) {
		Objects.requireNonNull(roundTime, "roundTime");
		if (roundTime.isNegative() || roundTime.isZero()) {
			throw new IllegalArgumentException("roundTime must be positive, was " + roundTime);
		}
		this.carried = Map.copyOf(carried);
		this.toCarry = new LinkedHashMap<>(this.carried);
		this.roundTime = roundTime;
	}

	/**
	 * A value the previous round carried to this one.
	 * @param name the value's name
	 * @return the value, or {@code null} on the first round or when it carried none
	 */
	public @Nullable String carried(String name) {
		return this.carried.get(name);
	}

	/**
	 * Carries a value to the retry, should this round end before the call completes.
	 * Values carried by the previous round are carried on unless replaced.
	 * @param name the value's name
	 * @param value the value
	 */
	public synchronized void carry(String name, String value) {
		this.toCarry.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
	}

	/**
	 * The values this round carries to the retry: those of the previous round, with this
	 * round's {@link #carry} applied.
	 * @return a copy, in the order first carried
	 */
	public synchronized Map<String, String> toCarry() {
		return new LinkedHashMap<>(this.toCarry);
	}

	/**
	 * How long this round may wait for something outside the call before it ends with a
	 * {@link ToolInputRequiredException} and its client retries.
	 * @return a positive duration
	 */
	public Duration roundTime() {
		return this.roundTime;
	}

}
