package dev.agentmiddleware.tool;

import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.jspecify.annotations.Nullable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports how far one running tool call has come, to a caller that asked to be told: an
 * MCP client that sent a {@code progressToken} with its {@code tools/call} gets each
 * report as a {@code notifications/progress}. A caller that asked for nothing (a direct
 * Java call, a Spring AI {@code ChatClient}, an MCP client without a token) gets
 * {@link #NONE}, which does nothing, so a tool reports the same way whoever calls it.
 *
 * <p>
 * An {@code @AgentTool} method declares a parameter of this type to get the progress of
 * its call, as a Spring AI {@code @Tool} method declares a {@code ToolContext}: it is not
 * one of the tool's arguments (not in its input schema, not bound from JSON, not part of
 * a cache key or an approval's arguments): <pre>{@code
 * &#64;AgentTool(description = "Imports the rows of a CSV file", safety = SafetyLevel.MODERATE)
 * public int importRows(String path, ToolProgress progress) {
 *     List<Row> rows = csv.read(path);
 *     for (int i = 0; i < rows.size(); i++) {
 *         repository.save(rows.get(i));
 *         progress.report(i + 1, rows.size(), "imported " + (i + 1) + " of " + rows.size() + " rows");
 *     }
 *     return rows.size();
 * }
 * }</pre> A Java caller of such a method passes {@code null} (no reports) or its own
 * {@code ToolProgress}, which then gets the reports of the call.
 *
 * <p>
 * <b>Contract.</b> Report as often as is convenient: what reaches the caller is bounded,
 * at most one report per interval ({@code agent.middleware.mcp.progress-interval} on the
 * MCP path, {@link ProgressTarget#DEFAULT_INTERVAL} otherwise). Reports coalesce rather
 * than drop: a report that comes sooner waits for the interval's end and is sent then,
 * unless a later report replaces it first, and when the tool's method returns (or throws)
 * the report still waiting is sent before the call's result, so the caller always hears
 * the last word ({@code 100/100}). Nothing is sent after the method has returned.
 * {@code progress} must increase from one report to the next, as the MCP specification
 * requires; a report that does not is dropped. {@code total} is {@code null} when
 * unknown. A report is sent on the calling thread, or, when it waited for the interval's
 * end, on the progress scheduler's thread; it never throws because sending failed and
 * never fails the call. Thread-safe. A call that first waited for approval, and told its
 * caller so, continues that progress: the tool's values are counted on from where the
 * wait's left off, with the same bound on the rate. Each run of the tool gets a reporter
 * of its own, so the bound and the increase hold within one run: the attempts of a
 * retried call report afresh.
 */
@FunctionalInterface
public interface ToolProgress {

	/** Progress nobody is told of: every report is dropped. */
	ToolProgress NONE = new ToolProgress() {

		@Override
		public void report(double progress, @Nullable Double total, @Nullable String message) {
		}

		@Override
		public boolean isReported() {
			return false;
		}

		@Override
		public String toString() {
			return "ToolProgress.NONE";
		}

	};

	/**
	 * Reports progress.
	 * @param progress how far the call has come, greater than in the report before;
	 * finite
	 * @param total the value {@code progress} reaches when the call is done, or
	 * {@code null} when unknown
	 * @param message what the call is doing, for a person, or {@code null}
	 */
	void report(double progress, @Nullable Double total, @Nullable String message);

	/**
	 * Reports progress towards a known total:
	 * {@code progress.report(3, 10, "3 of 10 files copied")}.
	 * @param progress how far the call has come, greater than in the report before;
	 * finite
	 * @param total the value {@code progress} reaches when the call is done
	 * @param message what the call is doing, for a person, or {@code null}
	 */
	default void report(double progress, double total, @Nullable String message) {
		report(progress, Double.valueOf(total), message);
	}

	/**
	 * Whether anyone is told of the reports, so that a tool can skip work done only to
	 * report.
	 * @return {@code false} for {@link #NONE}
	 */
	default boolean isReported() {
		return true;
	}

	/**
	 * Where the progress of one call goes, for a caller that asked to be told (an MCP
	 * client that sent a {@code progressToken}): a call carries it under
	 * {@link #ATTRIBUTE}, and a call without it has nobody to tell, so nothing is
	 * reported and nothing is spent. The layer that accepts the call sets it; a layer
	 * that waits (approval) or the tool reports through a {@linkplain #reporter()
	 * reporter} of it.
	 *
	 * <p>
	 * A value: the sender, the interval, the clock and the scheduler never change, and a
	 * reporter keeps its own state. A reporter sends at most one report per interval and
	 * only reports whose progress increases: a sooner report waits for the interval's
	 * end, when the {@link Scheduler} has the reporter send it, unless a later report
	 * replaced it; {@link Reporter#finish()} sends the one still waiting at once, and
	 * ends the reporter. A layer that reported and then lets the call go on hands the
	 * rest of the chain its reporter's {@linkplain Reporter#continuation() continuation},
	 * so that the next reporter of the same call keeps the bound on the rate and counts
	 * its progress on from where the earlier one left off. <pre>{@code
	 * ProgressTarget target = ProgressTarget.of((progress, total, message) -> client.notifyProgress(token, progress,
	 *         total, message), Duration.ofSeconds(5), Clock.systemUTC());
	 * pipeline.call(invocation.withAttribute(ProgressTarget.ATTRIBUTE, target));
	 *
	 * // in a layer of the chain
	 * ProgressTarget target = invocation.attribute(ProgressTarget.ATTRIBUTE);
	 * if (target != null) {
	 *     ProgressTarget.Reporter reporter = target.reporter();
	 *     reporter.report(0, null, "waiting for a slot");
	 *     ...
	 *     return next.handle(invocation.withAttribute(ProgressTarget.ATTRIBUTE, reporter.continuation()));
	 * }
	 *
	 * // where a tool's method is called
	 * ProgressTarget.Reporter progress = target.reporter();
	 * try {
	 *     return method.invoke(bean, arguments, progress);
	 * }
	 * finally {
	 *     progress.finish(); // the last report, if it still waits, goes out before the result
	 * }
	 * }</pre>
	 */
	public static final class ProgressTarget {

		/** The attribute under which a call carries where its progress goes. */
		public static final InvocationAttribute<ProgressTarget> ATTRIBUTE = InvocationAttribute.of("progress",
				ProgressTarget.class);

		/** The default least time between two reports: five seconds. */
		public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

		private static final Logger logger = LoggerFactory.getLogger(ProgressTarget.class);

		private final ToolProgress sender;

		private final Duration interval;

		private final Clock clock;

		private final Scheduler scheduler;

		// What an earlier reporter of the same call last sent, and when; NaN and null
		// when nothing was sent
		private final double sentProgress;

		private final @Nullable Instant sentAt;

		private ProgressTarget(ToolProgress sender, Duration interval, Clock clock, Scheduler scheduler,
				double sentProgress, @Nullable Instant sentAt) {
			this.sender = sender;
			this.interval = interval;
			this.clock = clock;
			this.scheduler = scheduler;
			this.sentProgress = sentProgress;
			this.sentAt = sentAt;
		}

		/**
		 * Creates the target of one call, whose waiting reports the
		 * {@linkplain Scheduler#shared() shared scheduler} sends.
		 * @param sender sends each report that passes the bounds to the caller, as it is
		 * given
		 * @param interval the least time between two reports; positive
		 * @param clock the clock the interval is measured with
		 * @return the target
		 */
		public static ProgressTarget of(ToolProgress sender, Duration interval, Clock clock) {
			return of(sender, interval, clock, Scheduler.shared());
		}

		/**
		 * Creates the target of one call.
		 * @param sender sends each report that passes the bounds to the caller, as it is
		 * given
		 * @param interval the least time between two reports; positive
		 * @param clock the clock the interval is measured with
		 * @param scheduler runs the sending of a report that waits for the interval's end
		 * @return the target
		 */
		public static ProgressTarget of(ToolProgress sender, Duration interval, Clock clock, Scheduler scheduler) {
			Objects.requireNonNull(sender, "sender");
			Objects.requireNonNull(interval, "interval");
			if (interval.isNegative() || interval.isZero()) {
				throw new IllegalArgumentException("interval must be positive, was " + interval);
			}
			return new ProgressTarget(sender, interval, Objects.requireNonNull(clock, "clock"),
					Objects.requireNonNull(scheduler, "scheduler"), Double.NaN, null);
		}

		/**
		 * The least time between two reports.
		 * @return the interval
		 */
		public Duration interval() {
			return this.interval;
		}

		/**
		 * The clock the interval is measured with.
		 * @return the clock
		 */
		public Clock clock() {
			return this.clock;
		}

		/**
		 * A new reporter, for one layer or one run of the tool; reporters of one target
		 * do not share state.
		 * @return the reporter
		 */
		public Reporter reporter() {
			return new Reporter(this);
		}

		@Override
		public String toString() {
			return "ProgressTarget[interval=" + this.interval + ", sent=" + this.sentAt + "]";
		}

		// The shared scheduler's thread, started on first use
		private static final class SharedScheduler {

			private static final ScheduledExecutorService EXECUTOR = Executors
				.newSingleThreadScheduledExecutor((task) -> {
					Thread thread = new Thread(task, "agent-tool-progress");
					thread.setDaemon(true);
					return thread;
				});

			static final Scheduler INSTANCE = (task, delay) -> EXECUTOR.schedule(task, delay.toNanos(),
					TimeUnit.NANOSECONDS);

			private SharedScheduler() {
			}

		}

		/**
		 * Reports to a {@link ProgressTarget}, within its bounds: sends a report at once
		 * when the interval has passed since the last one sent, and otherwise keeps it
		 * until the interval's end (a later report replaces it), when the target's
		 * {@link Scheduler} has it sent. {@link #finish()} sends the report still waiting
		 * and ends the reporter. Thread-safe: sending is serialised, so reports reach the
		 * sender in the order of their progress.
		 */
		public static final class Reporter implements ToolProgress {

			private final ProgressTarget target;

			// Added to what this reporter is given: the progress an earlier reporter of
			// the same call reached
			private final double base;

			private double lastSent;

			private @Nullable Instant lastSentAt;

			// The report that waits for the interval's end, and the scheduled sending of
			// it
			private @Nullable Waiting waiting;

			private @Nullable Future<?> scheduled;

			// Counts schedulings, so that a sending that was cancelled too late to stop
			// it knows it is stale
			private long scheduling;

			private boolean finished;

			private Reporter(ProgressTarget target) {
				this.target = target;
				boolean continued = !Double.isNaN(target.sentProgress);
				this.base = continued ? target.sentProgress : 0;
				this.lastSent = continued ? target.sentProgress : Double.NEGATIVE_INFINITY;
				this.lastSentAt = target.sentAt;
			}

			/**
			 * Sends the report if the interval has passed since the last one sent, or
			 * keeps it until the interval's end, in place of a report kept before; drops
			 * it if its progress does not increase on the last report given, or once the
			 * reporter is finished. A sender that fails is logged at DEBUG; the report
			 * counts as not sent.
			 * @throws IllegalArgumentException if {@code progress} or {@code total} is
			 * not finite
			 */
			@Override
			public void report(double progress, @Nullable Double total, @Nullable String message) {
				if (!Double.isFinite(progress) || (total != null && !Double.isFinite(total))) {
					throw new IllegalArgumentException(
							"progress and total must be finite numbers, were " + progress + " and " + total);
				}
				Instant now = this.target.clock.instant();
				Waiting report = new Waiting(this.base + progress, (total != null) ? this.base + total : null, message);
				synchronized (this) {
					Waiting before = this.waiting;
					if (this.finished || report.progress() <= ((before != null) ? before.progress() : this.lastSent)) {
						return;
					}
					Instant next = nextReportAt(now);
					if (!now.isBefore(next)) {
						cancelScheduled();
						this.waiting = null;
						send(report, now);
						return;
					}
					this.waiting = report;
					if (this.scheduled == null) {
						long scheduling = ++this.scheduling;
						this.scheduled = this.target.scheduler.schedule(() -> sendWaiting(scheduling),
								Duration.between(now, next));
					}
				}
			}

			/**
			 * Sends the report that waits for the interval's end, if any, at once, and
			 * ends this reporter: later reports are dropped. Called when the tool's
			 * method has returned or thrown, before the call's result goes to the caller,
			 * so that the caller hears the last report.
			 */
			public synchronized void finish() {
				if (this.finished) {
					return;
				}
				cancelScheduled();
				Waiting report = this.waiting;
				this.waiting = null;
				if (report != null) {
					send(report, this.target.clock.instant());
				}
				this.finished = true;
			}

			// The interval's end, as the scheduler saw it: the report still waiting is
			// sent
			private synchronized void sendWaiting(long scheduling) {
				if (scheduling != this.scheduling || this.scheduled == null) {
					return; // cancelled: the report was sent or dropped since
				}
				this.scheduled = null;
				Waiting report = this.waiting;
				this.waiting = null;
				if (report != null && !this.finished) {
					send(report, this.target.clock.instant());
				}
			}

			private void send(Waiting report, Instant now) {
				try {
					this.target.sender.report(report.progress(), report.total(), report.message());
				}
				catch (RuntimeException ex) {
					logger.debug("A progress report could not be sent: {}", ex.getClass().getSimpleName());
					return;
				}
				this.lastSent = report.progress();
				this.lastSentAt = now;
			}

			private void cancelScheduled() {
				Future<?> scheduled = this.scheduled;
				if (scheduled != null) {
					scheduled.cancel(false);
					this.scheduled = null;
					this.scheduling++;
				}
			}

			/**
			 * How long until the next report may be sent: the rest of the interval after
			 * the last one sent, zero if none was or the interval has passed.
			 * @return the time to wait, not negative
			 */
			public synchronized Duration untilNextReport() {
				Instant now = this.target.clock.instant();
				Duration left = Duration.between(now, nextReportAt(now));
				return left.isNegative() ? Duration.ZERO : left;
			}

			/**
			 * The least time between two reports, that of the target.
			 * @return the interval
			 */
			public Duration interval() {
				return this.target.interval;
			}

			private Instant nextReportAt(Instant now) {
				Instant sent = this.lastSentAt;
				return (sent != null) ? sent.plus(this.target.interval) : now;
			}

			/**
			 * The target for the rest of the call: the same caller, with what this
			 * reporter sent, so that the next reporter keeps the bound on the rate and
			 * counts on from this reporter's progress. Ends this reporter: a report of it
			 * still waiting is dropped, as the rest of the call reports on.
			 * @return the target; the one this reporter came from if it sent nothing
			 */
			public synchronized ProgressTarget continuation() {
				cancelScheduled();
				this.waiting = null;
				this.finished = true;
				Instant sent = this.lastSentAt;
				if (sent == null || sent.equals(this.target.sentAt)) {
					return this.target;
				}
				return new ProgressTarget(this.target.sender, this.target.interval, this.target.clock,
						this.target.scheduler, this.lastSent, sent);
			}

			@Override
			public String toString() {
				return "ProgressTarget.Reporter[last=" + this.lastSentAt + "]";
			}

			private record Waiting(double progress, @Nullable Double total, @Nullable String message) {
			}

		}

		/**
		 * Runs the sending of a report that waited for the end of its interval, once,
		 * after a delay: on a thread of its own, since the tool's thread is busy with the
		 * tool. {@link #shared()} is one daemon thread for the whole JVM; tests give one
		 * that runs its tasks when they move their clock. <pre>{@code
		 * ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
		 * ProgressTarget target = ProgressTarget.of(sender, Duration.ofSeconds(5), Clock.systemUTC(),
		 *         (task, delay) -> executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS));
		 * }</pre>
		 */
		@FunctionalInterface
		public interface Scheduler {

			/**
			 * Runs a task once, after a delay. The task is short (it sends one report)
			 * and never throws.
			 * @param task the task
			 * @param delay how long to wait first; positive
			 * @return the task's future, which the reporter cancels when the report no
			 * longer waits
			 */
			Future<?> schedule(Runnable task, Duration delay);

			/**
			 * The scheduler of progress reports for the whole JVM: one daemon thread,
			 * {@code agent-tool-progress}, started on first use.
			 * @return the shared scheduler
			 */
			static Scheduler shared() {
				return SharedScheduler.INSTANCE;
			}

		}

	}

}
