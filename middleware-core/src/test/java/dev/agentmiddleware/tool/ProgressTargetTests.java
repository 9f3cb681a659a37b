package dev.agentmiddleware.tool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.testsupport.ManualScheduler;
import dev.agentmiddleware.testsupport.MutableClock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;

class ProgressTargetTests {

	private final MutableClock clock = new MutableClock();

	private final List<Sent> sent = new CopyOnWriteArrayList<>();

	private final ManualScheduler scheduler = new ManualScheduler(this.clock);

	private final ProgressTarget target = ProgressTarget.of(
			(progress, total, message) -> this.sent.add(new Sent(progress, total, message)), Duration.ofSeconds(5),
			this.clock, this.scheduler::schedule);

	@Test
	void firstReportIsSentAndAReportAfterTheIntervalIsSentAtOnce() {
		ProgressTarget.Reporter reporter = this.target.reporter();
		reporter.report(1, 10, "1 of 10");
		assertThat(reporter.untilNextReport()).isEqualTo(Duration.ofSeconds(5));
		this.clock.advance(Duration.ofSeconds(5));
		reporter.report(2, 10, "2 of 10");
		assertThat(this.sent).containsExactly(new Sent(1, 10.0, "1 of 10"), new Sent(2, 10.0, "2 of 10"));
		assertThat(this.scheduler.waiting()).isZero();
	}

	@Test
	void reportsSoonerThanTheIntervalCoalesceAndTheLatestIsSentAtTheIntervalsEnd() {
		ProgressTarget.Reporter reporter = this.target.reporter();
		reporter.report(1, 10, "1 of 10");
		this.scheduler.advance(Duration.ofSeconds(1));
		reporter.report(2, 10, "2 of 10");
		this.scheduler.advance(Duration.ofSeconds(2));
		reporter.report(3, 10, "3 of 10");
		assertThat(reporter.untilNextReport()).isEqualTo(Duration.ofSeconds(2));
		assertThat(this.sent).containsExactly(new Sent(1, 10.0, "1 of 10"));
		this.scheduler.advance(Duration.ofMillis(1_999));
		assertThat(this.sent).hasSize(1);
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(this.sent).containsExactly(new Sent(1, 10.0, "1 of 10"), new Sent(3, 10.0, "3 of 10"));
		// The next interval counts from that send
		assertThat(reporter.untilNextReport()).isEqualTo(Duration.ofSeconds(5));
		this.scheduler.advance(Duration.ofSeconds(60));
		assertThat(this.sent).hasSize(2);
	}

	@Test
	void finishSendsTheWaitingReportAtOnceSoTheLastWordIsHeardBeforeTheResult() {
		ProgressTarget.Reporter reporter = this.target.reporter();
		for (int row = 0; row <= 100; row++) {
			reporter.report(row, 100, row + "/100");
		}
		assertThat(this.sent).containsExactly(new Sent(0, 100.0, "0/100"));
		reporter.finish();
		assertThat(this.sent).containsExactly(new Sent(0, 100.0, "0/100"), new Sent(100, 100.0, "100/100"));
		assertThat(this.scheduler.waiting()).as("the scheduled sending is cancelled").isZero();
	}

	@Test
	void aFinishedReporterSendsNothingMore() {
		ProgressTarget.Reporter reporter = this.target.reporter();
		reporter.report(1, 3, "1 of 3");
		reporter.report(2, 3, "2 of 3");
		reporter.finish();
		reporter.finish();
		this.scheduler.advance(Duration.ofSeconds(10));
		reporter.report(3, 3, "3 of 3");
		assertThat(this.sent).containsExactly(new Sent(1, 3.0, "1 of 3"), new Sent(2, 3.0, "2 of 3"));
	}

	@Test
	void finishWithNothingWaitingSendsNothing() {
		ProgressTarget.Reporter reporter = this.target.reporter();
		reporter.report(1, 3, "1 of 3");
		reporter.finish();
		assertThat(this.sent).containsExactly(new Sent(1, 3.0, "1 of 3"));
	}

	@Test
	void aReportThatDoesNotIncreaseOnTheWaitingOneIsDropped() {
		ProgressTarget.Reporter reporter = this.target.reporter();
		reporter.report(1, null, "one");
		reporter.report(5, null, "five");
		reporter.report(4, null, "four");
		this.scheduler.advance(Duration.ofSeconds(5));
		assertThat(this.sent).containsExactly(new Sent(1, null, "one"), new Sent(5, null, "five"));
	}

	@Test
	void continuationDropsAReportStillWaitingAndEndsTheReporter() {
		ProgressTarget.Reporter waiting = this.target.reporter();
		waiting.report(0, 120, "waiting");
		this.clock.advance(Duration.ofSeconds(1));
		waiting.report(1, 120, "still waiting");
		ProgressTarget.Reporter tool = waiting.continuation().reporter();
		this.scheduler.advance(Duration.ofSeconds(10));
		waiting.report(50, 120, "late");
		assertThat(this.sent).containsExactly(new Sent(0, 120.0, "waiting"));
		tool.report(1, 2, "1 of 2");
		assertThat(this.sent).containsExactly(new Sent(0, 120.0, "waiting"), new Sent(1, 2.0, "1 of 2"));
	}

	@Test
	void reportWhoseProgressDoesNotIncreaseIsDropped() {
		ProgressTarget.Reporter reporter = this.target.reporter();
		reporter.report(5, null, "five");
		this.scheduler.advance(Duration.ofSeconds(10));
		reporter.report(5, null, "five again");
		reporter.report(4, null, "back");
		reporter.report(6, null, "six");
		assertThat(this.sent).containsExactly(new Sent(5, null, "five"), new Sent(6, null, "six"));
	}

	@Test
	void continuationKeepsTheRateAndCountsOnFromWhatWasSent() {
		ProgressTarget.Reporter waiting = this.target.reporter();
		waiting.report(0, 120, "waiting");
		this.clock.advance(Duration.ofSeconds(5));
		waiting.report(5, 120, "still waiting");
		this.clock.advance(Duration.ofSeconds(2));
		ProgressTarget.Reporter tool = waiting.continuation().reporter();
		tool.report(1, 4, "1 of 4");
		this.scheduler.advance(Duration.ofSeconds(3));
		tool.report(2, 4, "2 of 4");
		tool.finish();
		assertThat(this.sent).containsExactly(new Sent(0, 120.0, "waiting"), new Sent(5, 120.0, "still waiting"),
				new Sent(6, 9.0, "1 of 4"), new Sent(7, 9.0, "2 of 4"));
	}

	@Test
	void continuationOfAReporterThatSentNothingIsTheTargetItself() {
		assertThat(this.target.reporter().continuation()).isSameAs(this.target);
	}

	@Test
	void senderThatFailsNeverFailsTheReportAndTheNextReportIsTried() {
		List<Double> tried = new CopyOnWriteArrayList<>();
		ProgressTarget failing = ProgressTarget.of((progress, total, message) -> {
			tried.add(progress);
			throw new IllegalStateException("stream closed");
		}, Duration.ofSeconds(5), this.clock, this.scheduler::schedule);
		ProgressTarget.Reporter reporter = failing.reporter();
		reporter.report(1, null, null);
		reporter.report(2, null, null);
		assertThat(tried).containsExactly(1.0, 2.0);
		assertThat(reporter.continuation()).isSameAs(failing);
	}

	@Test
	void progressAndTotalMustBeFinite() {
		ProgressTarget.Reporter reporter = this.target.reporter();
		assertThatIllegalArgumentException().isThrownBy(() -> reporter.report(Double.NaN, null, "x"))
			.withMessageContaining("must be finite");
		assertThatIllegalArgumentException().isThrownBy(() -> reporter.report(1, Double.POSITIVE_INFINITY, "x"))
			.withMessageContaining("must be finite");
		assertThat(this.sent).isEmpty();
	}

	@Test
	void intervalMustBePositive() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProgressTarget.of(ToolProgress.NONE, Duration.ZERO, this.clock))
			.withMessage("interval must be positive, was PT0S");
	}

	@Test
	void noneDropsEveryReportAndSaysSo() {
		ToolProgress.NONE.report(1, 2, "nothing");
		assertThat(ToolProgress.NONE.isReported()).isFalse();
		assertThat(this.target.reporter().isReported()).isTrue();
	}

	record Sent(double progress, @Nullable Double total, @Nullable String message) {
	}

}
