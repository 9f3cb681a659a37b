package dev.agentmiddleware.internal;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DurationTextTests {

	@Test
	void formatsMillisecondsSecondsMinutesAndHours() {
		assertThat(DurationText.of(Duration.ofMillis(250))).isEqualTo("250ms");
		assertThat(DurationText.of(Duration.ofSeconds(12))).isEqualTo("12s");
		assertThat(DurationText.of(Duration.ofMinutes(2))).isEqualTo("2m");
		assertThat(DurationText.of(Duration.ofSeconds(90))).isEqualTo("1m30s");
		assertThat(DurationText.of(Duration.ofHours(1))).isEqualTo("1h");
		assertThat(DurationText.of(Duration.ofMinutes(90))).isEqualTo("1h30m");
	}

	@Test
	void roundsPartialSecondsUpSoARetryHintIsNeverTooShort() {
		assertThat(DurationText.of(Duration.ofMillis(1500))).isEqualTo("2s");
		assertThat(DurationText.of(Duration.ofNanos(1))).isEqualTo("1ms");
	}

	@Test
	void zeroAndNegativeDurationsAreZeroSeconds() {
		assertThat(DurationText.of(Duration.ZERO)).isEqualTo("0s");
		assertThat(DurationText.of(Duration.ofSeconds(-5))).isEqualTo("0s");
	}

}
