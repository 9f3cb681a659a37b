package dev.agentmiddleware.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A UTC clock that a test moves by hand, for time-based behaviour (expiry, time to live,
 * timeouts) without sleeping: <pre>{@code
 * MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
 * store.grant(grant, clock.instant());
 * clock.advance(Duration.ofHours(2));
 * assertThat(store.findGrant(...)).isEmpty();
 * }</pre> Thread-safe: the time is one volatile field.
 */
public final class MutableClock extends Clock {

	private volatile Instant now;

	/**
	 * Creates a clock standing at the given instant.
	 * @param now where the clock starts
	 */
	public MutableClock(Instant now) {
		this.now = Objects.requireNonNull(now, "now");
	}

	/**
	 * Creates a clock standing at 2026-01-01T00:00:00Z.
	 */
	public MutableClock() {
		this(Instant.parse("2026-01-01T00:00:00Z"));
	}

	/**
	 * Moves the clock forward (or back, with a negative duration).
	 * @param duration how far
	 */
	public void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

	@Override
	public Instant instant() {
		return this.now;
	}

}
