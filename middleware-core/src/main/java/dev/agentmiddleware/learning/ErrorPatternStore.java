package dev.agentmiddleware.learning;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agentmiddleware.learning.ErrorCounts.PatternCount;
import dev.agentmiddleware.learning.ErrorCounts.PatternKey;
import dev.agentmiddleware.learning.ErrorCounts.ToolCount;
import dev.agentmiddleware.learning.LearningObserver.LearningObserverAdapter;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * Learns what keeps failing: groups the failures of each tool into error patterns, counts
 * them, and notices when a tool succeeds again after failing.
 *
 * <p>
 * A pattern is the error message normalised so that failures that differ only in their
 * details fall together: the call's string arguments (also inside maps, collections and
 * arrays; a short one where it stands as a word of its own) become {@code <arg>} wherever
 * the message repeats them, so a pattern keeps the shape of the message and never an
 * argument value, secrets are redacted, then URLs become {@code <url>}, e-mail addresses
 * {@code <email>}, ISO timestamps {@code <time>}, UUIDs and hexadecimal or long
 * alphanumeric ids {@code <id>}, Unix and Windows file paths {@code <path>}, quoted
 * values {@code '<value>'} and numbers {@code <n>}; the result is at most
 * {@value #MAX_PATTERN_LENGTH} characters. A pattern is counted per tool and error type,
 * with its {@link ErrorCategory}, when it was first and last seen, and how often the tool
 * recovered from it: a success of the tool right after a failure counts as a recovery of
 * that failure's pattern.
 *
 * <p>
 * Memory is bounded: beyond {@code maxPatterns} distinct patterns (and {@code maxTools}
 * tools) the least recently seen one is dropped and counted in
 * {@link #evictedPatterns()}. Thread-safe: it is fed from the observer thread and read
 * from others; reads return snapshots. <pre>{@code
 * ErrorPatternStore errors = ErrorPatternStore.builder().maxPatterns(500).build();
 * ToolCallObservers observers = ToolCallObservers.builder().observer(LearningObserverAdapter.of(errors)).build();
 * ...
 * for (ErrorPatternStatistics pattern : errors.topPatterns(10)) {
 *     logger.info("{}: {} x{}", pattern.tool(), pattern.pattern(), pattern.occurrences());
 * }
 * }</pre>
 */
public final class ErrorPatternStore implements LearningObserver {

	/** The default bound on distinct patterns. */
	public static final int DEFAULT_MAX_PATTERNS = 1000;

	/** The default bound on tools tracked. */
	public static final int DEFAULT_MAX_TOOLS = 1000;

	/** The longest pattern kept; longer ones are cut. */
	public static final int MAX_PATTERN_LENGTH = 300;

	private static final Comparator<ErrorPatternStatistics> MOST_FREQUENT_PATTERN = Comparator
		.comparingLong(ErrorPatternStatistics::occurrences)
		.reversed()
		.thenComparing(ErrorPatternStatistics::lastSeen, Comparator.reverseOrder())
		.thenComparing(ErrorPatternStatistics::tool)
		.thenComparing(ErrorPatternStatistics::pattern);

	private static final Comparator<ToolFailureStatistics> MOST_FAILING_TOOL = Comparator
		.comparingLong(ToolFailureStatistics::failures)
		.reversed()
		.thenComparing(ToolFailureStatistics::tool);

	private final Clock clock;

	private final ErrorPatterns errorPatterns;

	private final Object lock = new Object();

	private final Map<PatternKey, PatternCount> patterns;

	private final Map<String, ToolCount> tools;

	private long evictedPatterns;

	private ErrorPatternStore(Builder builder) {
		this.clock = builder.clock;
		this.errorPatterns = new ErrorPatterns(builder.redactor);
		int maxPatterns = builder.maxPatterns;
		int maxTools = builder.maxTools;
		// Access-ordered: the eldest entry is the least recently seen one.
		this.patterns = new LinkedHashMap<>(16, 0.75f, true) {
			@Override
			protected boolean removeEldestEntry(Map.Entry<PatternKey, PatternCount> eldest) {
				if (size() > maxPatterns) {
					ErrorPatternStore.this.evictedPatterns++;
					return true;
				}
				return false;
			}
		};
		this.tools = new LinkedHashMap<>(16, 0.75f, true) {
			@Override
			protected boolean removeEldestEntry(Map.Entry<String, ToolCount> eldest) {
				return size() > maxTools;
			}
		};
	}

	/**
	 * Starts a store with the defaults: {@value #DEFAULT_MAX_PATTERNS} patterns,
	 * {@value #DEFAULT_MAX_TOOLS} tools, the UTC system clock and the default secret
	 * words.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	public void onToolResult(@Nullable String sessionKey, String toolName, Map<String, @Nullable Object> params,
			@Nullable Object result, @Nullable Throwable error) {
		Objects.requireNonNull(toolName, "toolName");
		Instant now = this.clock.instant();
		if (error == null) {
			recordSuccess(toolName, now);
		}
		else if (CallOutcome.ofFailure(error) == CallOutcome.INPUT_REQUIRED) {
			// A call that waits for its client's answer neither failed nor succeeded
			return;
		}
		else {
			recordFailure(toolName, params, error, now);
		}
	}

	/**
	 * Normalises an error message into a pattern.
	 * @param message the message
	 * @return the pattern, {@code (no message)} for a missing or blank message
	 */
	public String normalise(@Nullable String message) {
		return this.errorPatterns.normalise(message);
	}

	/**
	 * The most frequent error patterns over all tools.
	 * @param limit how many at most
	 * @return snapshots, most occurrences first
	 */
	public List<ErrorPatternStatistics> topPatterns(int limit) {
		return top(patternSnapshots(null), MOST_FREQUENT_PATTERN, limit);
	}

	/**
	 * The error patterns of one tool.
	 * @param toolName the tool
	 * @return snapshots, most occurrences first; empty if the tool never failed (or its
	 * patterns were evicted)
	 */
	public List<ErrorPatternStatistics> patternsOf(String toolName) {
		return top(patternSnapshots(toolName), MOST_FREQUENT_PATTERN, Integer.MAX_VALUE);
	}

	/**
	 * The tools with the most failures.
	 * @param limit how many at most
	 * @return snapshots of tools that failed at least once, most failures first
	 */
	public List<ToolFailureStatistics> topFailingTools(int limit) {
		List<ToolFailureStatistics> snapshots = new ArrayList<>();
		synchronized (this.lock) {
			this.tools.forEach((name, count) -> {
				if (count.failures > 0) {
					snapshots.add(count.snapshot(name));
				}
			});
		}
		return top(snapshots, MOST_FAILING_TOOL, limit);
	}

	/**
	 * How one tool fares.
	 * @param toolName the tool
	 * @return a snapshot, or {@code null} if the tool was never called (or was evicted)
	 */
	public @Nullable ToolFailureStatistics statisticsOf(String toolName) {
		synchronized (this.lock) {
			ToolCount count = this.tools.get(toolName);
			return (count != null) ? count.snapshot(toolName) : null;
		}
	}

	/**
	 * How many distinct patterns are held.
	 * @return the count, at most {@code maxPatterns}
	 */
	public int size() {
		synchronized (this.lock) {
			return this.patterns.size();
		}
	}

	/**
	 * How many patterns were dropped to keep memory bounded.
	 * @return the count since start
	 */
	public long evictedPatterns() {
		synchronized (this.lock) {
			return this.evictedPatterns;
		}
	}

	private void recordFailure(String toolName, Map<String, @Nullable Object> params, Throwable error, Instant now) {
		Throwable cause = ErrorPatterns.unwrap(error);
		ErrorCategory category = ErrorCategory.of(cause);
		String message = cause.getMessage();
		String pattern = this.errorPatterns
			.normalise((message != null) ? ErrorPatterns.withoutArguments(message, params) : null);
		PatternKey key = new PatternKey(toolName, cause.getClass().getSimpleName(), pattern);
		synchronized (this.lock) {
			PatternCount count = this.patterns.get(key);
			if (count == null) {
				count = new PatternCount(category, now);
				this.patterns.put(key, count);
			}
			count.occurrences++;
			count.lastSeen = now;
			ToolCount tool = this.tools.computeIfAbsent(toolName, (name) -> new ToolCount());
			tool.failures++;
			tool.lastFailure = key;
			tool.lastFailureCategory = category;
			tool.lastFailedAt = now;
			tool.failing = true;
		}
	}

	private void recordSuccess(String toolName, Instant now) {
		synchronized (this.lock) {
			ToolCount tool = this.tools.computeIfAbsent(toolName, (name) -> new ToolCount());
			tool.successes++;
			if (tool.failing) {
				tool.failing = false;
				tool.recoveries++;
				PatternCount count = (tool.lastFailure != null) ? this.patterns.get(tool.lastFailure) : null;
				if (count != null) {
					count.recoveries++;
					count.lastRecoveredAt = now;
				}
			}
		}
	}

	private List<ErrorPatternStatistics> patternSnapshots(@Nullable String toolName) {
		List<ErrorPatternStatistics> snapshots = new ArrayList<>();
		synchronized (this.lock) {
			this.patterns.forEach((key, count) -> {
				if (toolName == null || key.tool().equals(toolName)) {
					snapshots.add(new ErrorPatternStatistics(key.tool(), key.pattern(), key.errorType(), count.category,
							count.occurrences, count.firstSeen, count.lastSeen, count.recoveries,
							count.lastRecoveredAt));
				}
			});
		}
		return snapshots;
	}

	private static <T> List<T> top(List<T> snapshots, Comparator<T> order, int limit) {
		if (limit < 0) {
			throw new IllegalArgumentException("limit must not be negative, was " + limit);
		}
		snapshots.sort(order);
		return List.copyOf((snapshots.size() > limit) ? snapshots.subList(0, limit) : snapshots);
	}

	/**
	 * Builds an {@link ErrorPatternStore}.
	 */
	public static final class Builder {

		private int maxPatterns = DEFAULT_MAX_PATTERNS;

		private int maxTools = DEFAULT_MAX_TOOLS;

		private Clock clock = Clock.systemUTC();

		private SecretRedactor redactor = SecretRedactor.withDefaults();

		private Builder() {
		}

		/**
		 * Sets how many distinct patterns are kept before the least recently seen is
		 * dropped (default {@value ErrorPatternStore#DEFAULT_MAX_PATTERNS}).
		 * @param maxPatterns the bound, at least 1
		 * @return this builder
		 */
		public Builder maxPatterns(int maxPatterns) {
			if (maxPatterns < 1) {
				throw new IllegalArgumentException("maxPatterns must be at least 1, was " + maxPatterns);
			}
			this.maxPatterns = maxPatterns;
			return this;
		}

		/**
		 * Sets how many tools are tracked before the least recently called is dropped
		 * (default {@value ErrorPatternStore#DEFAULT_MAX_TOOLS}).
		 * @param maxTools the bound, at least 1
		 * @return this builder
		 */
		public Builder maxTools(int maxTools) {
			if (maxTools < 1) {
				throw new IllegalArgumentException("maxTools must be at least 1, was " + maxTools);
			}
			this.maxTools = maxTools;
			return this;
		}

		/**
		 * Sets the clock that dates occurrences and recoveries (default: the UTC system
		 * clock).
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "clock");
			return this;
		}

		/**
		 * Sets the redactor that hides secrets in messages before they are normalised
		 * (default: the default secret words).
		 * @param redactor the redactor
		 * @return this builder
		 */
		public Builder redactor(SecretRedactor redactor) {
			this.redactor = Objects.requireNonNull(redactor, "redactor");
			return this;
		}

		/**
		 * Builds the store.
		 * @return the empty store
		 */
		public ErrorPatternStore build() {
			return new ErrorPatternStore(this);
		}

	}

	/**
	 * A snapshot of one error pattern of one tool, as counted by
	 * {@link ErrorPatternStore}.
	 *
	 * @param tool the tool that failed
	 * @param pattern the normalised error message: ids, numbers, paths, URLs, timestamps
	 * and quoted values replaced by placeholders such as {@code <id>}, {@code <n>},
	 * {@code <path>}, {@code <time>}; secrets redacted
	 * @param errorType the simple class name of the error
	 * @param category what kind of failure it is
	 * @param occurrences how many calls failed this way
	 * @param firstSeen when the first of them ended
	 * @param lastSeen when the last of them ended
	 * @param recoveries how many times the tool succeeded again right after failing this
	 * way
	 * @param lastRecoveredAt when it last did, or {@code null} if it never has
	 */
	public record ErrorPatternStatistics(String tool, String pattern, String errorType, ErrorCategory category,
			long occurrences, Instant firstSeen, Instant lastSeen, long recoveries, @Nullable Instant lastRecoveredAt) {

	}

	/**
	 * A snapshot of how one tool fares, as counted by {@link ErrorPatternStore}.
	 *
	 * @param tool the tool
	 * @param failures how many of its calls failed
	 * @param successes how many of its calls succeeded
	 * @param recoveries how many times it succeeded right after a failure
	 * @param lastErrorPattern the normalised message of its last failure, or {@code null}
	 * if it never failed
	 * @param lastErrorCategory the category of its last failure, or {@code null} if it
	 * never failed
	 * @param lastFailedAt when its last failure ended, or {@code null} if it never failed
	 * @param failing whether its last call failed
	 */
	public record ToolFailureStatistics(String tool, long failures, long successes, long recoveries,
			@Nullable String lastErrorPattern, @Nullable ErrorCategory lastErrorCategory,
			@Nullable Instant lastFailedAt, boolean failing) {

	}

}
