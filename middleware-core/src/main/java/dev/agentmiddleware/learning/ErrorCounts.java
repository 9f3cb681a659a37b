package dev.agentmiddleware.learning;

import java.time.Instant;

import dev.agentmiddleware.learning.ErrorPatternStore.ToolFailureStatistics;
import org.jspecify.annotations.Nullable;

/**
 * The mutable counters behind {@link ErrorPatternStore}, guarded by the store's lock: one
 * per error pattern of a tool, one per tool.
 */
final class ErrorCounts {

	private ErrorCounts() {
	}

	record PatternKey(String tool, String errorType, String pattern) {
	}

	static final class PatternCount {

		final ErrorCategory category;

		final Instant firstSeen;

		Instant lastSeen;

		long occurrences;

		long recoveries;

		@Nullable Instant lastRecoveredAt;

		PatternCount(ErrorCategory category, Instant firstSeen) {
			this.category = category;
			this.firstSeen = firstSeen;
			this.lastSeen = firstSeen;
		}

	}

	static final class ToolCount {

		long failures;

		long successes;

		long recoveries;

		boolean failing;

		@Nullable PatternKey lastFailure;

		@Nullable ErrorCategory lastFailureCategory;

		@Nullable Instant lastFailedAt;

		ToolFailureStatistics snapshot(String name) {
			PatternKey lastFailure = this.lastFailure;
			return new ToolFailureStatistics(name, this.failures, this.successes, this.recoveries,
					(lastFailure != null) ? lastFailure.pattern() : null, this.lastFailureCategory, this.lastFailedAt,
					this.failing);
		}

	}

}
