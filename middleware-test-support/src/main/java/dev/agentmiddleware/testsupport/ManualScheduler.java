package dev.agentmiddleware.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * Runs tasks scheduled after a delay when a test moves its {@link MutableClock} past
 * their time, on the test's thread: time-based behaviour that waits (a report sent at the
 * end of its interval) tested without sleeping or a thread of its own. <pre>{@code
 * MutableClock clock = new MutableClock();
 * ManualScheduler scheduler = new ManualScheduler(clock);
 * ProgressTarget target = ProgressTarget.of(sender, Duration.ofSeconds(5), clock, scheduler::schedule);
 * ...
 * scheduler.advance(Duration.ofSeconds(5));   // moves the clock, runs what is due
 * }</pre> Thread-safe; tasks run outside its lock.
 */
public final class ManualScheduler {

	private final MutableClock clock;

	private final List<Scheduled> tasks = new ArrayList<>();

	/**
	 * Creates a scheduler that runs tasks by the given clock.
	 * @param clock the clock the test moves
	 */
	public ManualScheduler(MutableClock clock) {
		this.clock = Objects.requireNonNull(clock, "clock");
	}

	/**
	 * Schedules a task to run once the clock has moved by the delay.
	 * @param task the task
	 * @param delay how long from now
	 * @return the task's future, which cancels it
	 */
	public synchronized Future<?> schedule(Runnable task, Duration delay) {
		FutureTask<Void> future = new FutureTask<>(task, null);
		this.tasks.add(new Scheduled(this.clock.instant().plus(delay), future));
		return future;
	}

	/**
	 * Moves the clock forward and runs, in order of their time, the tasks that are due,
	 * each with the clock at its time.
	 * @param duration how far
	 */
	public void advance(Duration duration) {
		Instant until = this.clock.instant().plus(duration);
		while (true) {
			Scheduled next;
			synchronized (this) {
				next = this.tasks.stream()
					.filter((scheduled) -> !scheduled.at().isAfter(until))
					.min(Comparator.comparing(Scheduled::at))
					.orElse(null);
				if (next == null) {
					break;
				}
				this.tasks.remove(next);
			}
			if (next.at().isAfter(this.clock.instant())) {
				this.clock.advance(Duration.between(this.clock.instant(), next.at()));
			}
			next.task().run();
		}
		if (until.isAfter(this.clock.instant())) {
			this.clock.advance(Duration.between(this.clock.instant(), until));
		}
	}

	/**
	 * How many tasks wait to run, not counting cancelled ones.
	 * @return the count
	 */
	public synchronized long waiting() {
		return this.tasks.stream().filter((scheduled) -> !scheduled.task().isCancelled()).count();
	}

	private record Scheduled(Instant at, FutureTask<Void> task) {
	}

}
