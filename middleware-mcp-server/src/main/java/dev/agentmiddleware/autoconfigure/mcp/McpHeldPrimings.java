package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the priming events that request streams hold back. A request's stream writes its
 * priming event (SEP-1699) without sending it ({@link PrimingHoldingResponse}): a call
 * answered within the hold sends it with its answer, in one write instead of two, and a
 * call still running after it gets it sent from here, so that a client whose connection
 * breaks from then on knows where to resume. One daemon thread ({@code mcp-priming})
 * looks every {@code hold} while the transport runs, so a priming event is sent at most
 * twice the hold after its stream opened. A zero or negative hold holds none back: every
 * priming event is sent as it is written. <pre>{@code
 * McpHeldPrimings primings = new McpHeldPrimings(Duration.ofMillis(50), Clock.systemUTC());
 * primings.start();
 * stream.prime(retry, primings.isHolding() ? connection : null);
 * primings.hold(stream::sendHeldPriming);
 * // ...
 * primings.stop();
 * }</pre>
 */
final class McpHeldPrimings {

	/** How long a priming event may wait for its stream's first message by default. */
	static final Duration DEFAULT_HOLD = Duration.ofMillis(50);

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final Duration hold;

	private final Clock clock;

	// The streams holding a priming event back, in the order they started holding it
	private final ConcurrentLinkedQueue<Held> held = new ConcurrentLinkedQueue<>();

	// Looks every hold
	private final McpTicker ticker;

	/**
	 * Holds priming events back for {@code hold} at most.
	 * @param hold how long a priming event may wait for its stream's first message; zero
	 * holds none back
	 * @param clock the clock of the holds
	 */
	McpHeldPrimings(Duration hold, Clock clock) {
		this.hold = hold;
		this.clock = clock;
		this.ticker = new McpTicker("mcp-priming", hold, this::sendDue);
	}

	void start() {
		this.ticker.start();
	}

	void stop() {
		this.ticker.stop();
		// A stream still holding one sends it as it ends, which the transport's stop does
		this.held.clear();
	}

	/**
	 * Whether a stream may hold its priming event back: the hold is positive and the
	 * transport runs.
	 * @return whether priming events are held back
	 */
	boolean isHolding() {
		return this.ticker.isRunning();
	}

	/**
	 * Sends a stream's priming event once the hold has passed.
	 * @param send sends the priming event the stream holds back, unless it sent it before
	 * (with its first message) or ended ({@link McpSseStream#sendHeldPriming()}); answers
	 * {@code false} when the stream was busy, to be asked again at the next look
	 */
	void hold(BooleanSupplier send) {
		this.held.add(new Held(send, this.clock.millis() + this.hold.toMillis()));
	}

	/**
	 * Sends the priming events held back for the whole hold: run every hold by the
	 * transport's thread, directly by tests.
	 */
	void sendDue() {
		try {
			long now = this.clock.millis();
			List<Held> busy = new ArrayList<>();
			Held next;
			// The only thread that takes from the queue: the head it peeked is the one it
			// polls
			while ((next = this.held.peek()) != null && next.due() <= now) {
				this.held.poll();
				if (!next.send().getAsBoolean()) {
					busy.add(next);
				}
			}
			// A stream busy writing now is looked at again next time
			this.held.addAll(busy);
		}
		catch (RuntimeException ex) {
			logger.debug("Sending held MCP priming events failed: {}", ex.getClass().getSimpleName());
		}
	}

	// How many streams hold a priming event back; for tests
	int size() {
		return this.held.size();
	}

	private record Held(BooleanSupplier send, long due) {
	}

}
