package dev.agentmiddleware.learning;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of one error pattern of one tool, as counted by {@link ErrorPatternStore}.
 *
 * @param tool the tool that failed
 * @param pattern the normalised error message: ids, numbers, paths, URLs, timestamps and quoted values replaced by
 * placeholders such as {@code <id>}, {@code <n>}, {@code <path>}, {@code <time>}; secrets redacted
 * @param errorType the simple class name of the error
 * @param category what kind of failure it is
 * @param occurrences how many calls failed this way
 * @param firstSeen when the first of them ended
 * @param lastSeen when the last of them ended
 * @param recoveries how many times the tool succeeded again right after failing this way
 * @param lastRecoveredAt when it last did, or {@code null} if it never has
 */
public record ErrorPatternStatistics(String tool, String pattern, String errorType, ErrorCategory category,
		long occurrences, Instant firstSeen, Instant lastSeen, long recoveries, @Nullable Instant lastRecoveredAt) {

}
