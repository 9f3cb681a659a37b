package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.testsupport.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The held priming events of request streams: sent once their hold has passed, not
 * before; a busy stream is asked again; a zero hold holds none back.
 */
class McpHeldPrimingsTests {

	private final MutableClock clock = new MutableClock();

	private final McpHeldPrimings primings = new McpHeldPrimings(Duration.ofMillis(50), this.clock);

	@AfterEach
	void stop() {
		this.primings.stop();
	}

	@Test
	void aHeldPrimingEventIsSentOnceItsHoldHasPassedAndNotBefore() {
		AtomicInteger sent = new AtomicInteger();
		this.primings.hold(() -> {
			sent.incrementAndGet();
			return true;
		});
		this.clock.advance(Duration.ofMillis(49));
		this.primings.sendDue();
		assertThat(sent).hasValue(0);
		this.clock.advance(Duration.ofMillis(1));
		this.primings.sendDue();
		assertThat(sent).hasValue(1);
		this.clock.advance(Duration.ofMillis(100));
		this.primings.sendDue();
		assertThat(sent).as("sent once").hasValue(1);
		assertThat(this.primings.size()).isZero();
	}

	@Test
	void streamsAreSentInTheOrderTheirHoldsEndEachWhenItsOwnHoldHasPassed() {
		StringBuilder sent = new StringBuilder();
		this.primings.hold(() -> sent.append("a") != null);
		this.clock.advance(Duration.ofMillis(30));
		this.primings.hold(() -> sent.append("b") != null);
		this.clock.advance(Duration.ofMillis(20));
		this.primings.sendDue();
		assertThat(sent).hasToString("a");
		this.clock.advance(Duration.ofMillis(30));
		this.primings.sendDue();
		assertThat(sent).hasToString("ab");
	}

	@Test
	void aStreamBusyWritingIsAskedAgainAtTheNextLook() {
		AtomicInteger asked = new AtomicInteger();
		this.primings.hold(() -> asked.incrementAndGet() > 1);
		this.clock.advance(Duration.ofMillis(50));
		this.primings.sendDue();
		assertThat(asked).hasValue(1);
		assertThat(this.primings.size()).isOne();
		this.primings.sendDue();
		assertThat(asked).hasValue(2);
		assertThat(this.primings.size()).isZero();
	}

	@Test
	void aFailingStreamDoesNotStopTheOthersOfTheNextLook() {
		AtomicInteger sent = new AtomicInteger();
		this.primings.hold(() -> {
			throw new IllegalStateException("broken");
		});
		this.primings.hold(() -> sent.incrementAndGet() > 0);
		this.clock.advance(Duration.ofMillis(50));
		this.primings.sendDue();
		this.primings.sendDue();
		assertThat(sent).hasValue(1);
	}

	@Test
	void primingEventsAreHeldBackOnlyWhileTheTransportRunsWithAPositiveHold() {
		assertThat(this.primings.isHolding()).isFalse();
		this.primings.start();
		assertThat(this.primings.isHolding()).isTrue();
		this.primings.stop();
		assertThat(this.primings.isHolding()).isFalse();
		McpHeldPrimings none = new McpHeldPrimings(Duration.ZERO, this.clock);
		none.start();
		assertThat(none.isHolding()).isFalse();
		none.stop();
	}

}
