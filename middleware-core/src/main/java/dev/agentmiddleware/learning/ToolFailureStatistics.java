package dev.agentmiddleware.learning;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of how one tool fares, as counted by {@link ErrorPatternStore}.
 *
 * @param tool the tool
 * @param failures how many of its calls failed
 * @param successes how many of its calls succeeded
 * @param recoveries how many times it succeeded right after a failure
 * @param lastErrorPattern the normalised message of its last failure, or {@code null} if it never failed
 * @param lastErrorCategory the category of its last failure, or {@code null} if it never failed
 * @param lastFailedAt when its last failure ended, or {@code null} if it never failed
 * @param failing whether its last call failed
 */
public record ToolFailureStatistics(String tool, long failures, long successes, long recoveries,
		@Nullable String lastErrorPattern, @Nullable ErrorCategory lastErrorCategory, @Nullable Instant lastFailedAt,
		boolean failing) {

}
