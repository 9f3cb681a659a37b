package dev.agentmiddleware.approval;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;

/**
 * The wait for a decision of a call whose caller asked to be told of its progress: every
 * interval of the call's {@link ProgressTarget} while nobody has decided, the caller is
 * told what the call waits for ("waiting for approval of delete_file, 40 s left"), with
 * the seconds waited as the progress and the wait's length as the total. A call without a
 * target waits without this, and costs nothing more.
 */
final class ApprovalProgress {

	private ApprovalProgress() {
	}

	/**
	 * Waits for the decision of the request until it expires, reporting in between.
	 * @return the decision, or empty when none came in time
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	static Optional<ApprovalDecision> awaitDecision(ApprovalStore store, ApprovalRequest request, Clock clock,
			ProgressTarget.Reporter progress) throws InterruptedException {
		return awaitDecision(store, request, clock, progress, request.expiresAt());
	}

	/**
	 * Waits for the decision of the request until {@code deadline} (at most until it
	 * expires), reporting in between.
	 * @return the decision, or empty when none came in time
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	static Optional<ApprovalDecision> awaitDecision(ApprovalStore store, ApprovalRequest request, Clock clock,
			ProgressTarget.Reporter progress, Instant deadline) throws InterruptedException {
		Instant end = deadline.isBefore(request.expiresAt()) ? deadline : request.expiresAt();
		double total = seconds(request.createdAt(), request.expiresAt());
		while (true) {
			Instant now = clock.instant();
			Instant until = end;
			if (now.isBefore(until)) {
				progress.report(seconds(request.createdAt(), now), total, message(request, now));
				Duration pause = progress.untilNextReport();
				// Nothing was sent (the sender failed, or an earlier reporter of the call
				// is further on): a whole interval
				Instant wake = now.plus(pause.isZero() ? progress.interval() : pause);
				until = wake.isBefore(until) ? wake : until;
			}
			Optional<ApprovalDecision> decided = store.awaitDecision(request.id(), until, clock);
			if (decided.isPresent() || !until.isBefore(end)) {
				return decided;
			}
		}
	}

	static String message(ApprovalRequest request, Instant now) {
		long left = (Duration.between(now, request.expiresAt()).toMillis() + 999) / 1000;
		return "waiting for approval of " + request.toolName() + ", " + left + " s left";
	}

	private static double seconds(Instant from, Instant to) {
		return Duration.between(from, to).toMillis() / 1000.0;
	}

}
