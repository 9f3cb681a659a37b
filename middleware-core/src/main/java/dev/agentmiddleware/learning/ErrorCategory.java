package dev.agentmiddleware.learning;

import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import dev.agentmiddleware.tool.CallOutcome;

import org.jspecify.annotations.Nullable;

/**
 * What kind of failure an error is, as far as an operator or an agent can act on it.
 * <pre>{@code
 * ErrorCategory.of(new ToolTimeoutException("search", "timeout", Duration.ofSeconds(5))); // TIMEOUT
 * ErrorCategory.of(new IOException("HTTP 429 Too Many Requests"));                      // RATE_LIMIT
 * }</pre>
 */
public enum ErrorCategory {

	/** The call, or something it waited for, took too long. */
	TIMEOUT("(?:timed?[ -]?out|timeout|deadline exceeded)"),

	/** Too many calls: a rate limit, a quota or throttling. */
	RATE_LIMIT("(?:rate[ -]?limit\\w*|too many requests|429|throttl\\w*|quota)"),

	/** The call was not allowed: denied, forbidden, unauthorized. */
	PERMISSION("(?:permission|denied|forbidden|unauthori[sz]ed|not allowed|not permitted|401|403)"),

	/** The arguments were wrong: invalid, missing or malformed. */
	INVALID_ARGUMENTS("(?:invalid (?:argument|parameter|input|value)\\w*|illegal argument|missing required"
			+ "|required (?:argument|parameter)|malformed|bad request|400)"),

	/** Any other failure of the tool. */
	TOOL_ERROR(null);

	private static final int MAX_CAUSES = 10;

	private final @Nullable Pattern keywords;

	ErrorCategory(@Nullable String keywords) {
		this.keywords = (keywords != null) ? Pattern.compile("\\b" + keywords + "\\b") : null;
	}

	/**
	 * Classifies an error: first by the type of the error or of one of its causes (our
	 * own exceptions, then {@link SecurityException} and {@link AccessDeniedException} as
	 * permission, {@link TimeoutException} and {@link SocketTimeoutException} as timeout,
	 * {@link IllegalArgumentException} as invalid arguments), then by keywords in the
	 * messages, else {@link #TOOL_ERROR}.
	 * @param error the failure
	 * @return its category
	 */
	public static ErrorCategory of(Throwable error) {
		Throwable each = error;
		for (int i = 0; i < MAX_CAUSES && each != null; i++) {
			ErrorCategory category = byType(each);
			if (category != null) {
				return category;
			}
			each = (each.getCause() != each) ? each.getCause() : null;
		}
		each = error;
		for (int i = 0; i < MAX_CAUSES && each != null; i++) {
			String message = each.getMessage();
			if (message != null) {
				ErrorCategory category = ofMessage(message);
				if (category != TOOL_ERROR) {
					return category;
				}
			}
			each = (each.getCause() != each) ? each.getCause() : null;
		}
		return TOOL_ERROR;
	}

	/**
	 * Classifies an error message by its keywords.
	 * @param message the message
	 * @return its category, {@link #TOOL_ERROR} when no keyword matches
	 */
	public static ErrorCategory ofMessage(String message) {
		String lowerCase = message.toLowerCase(Locale.ROOT);
		for (ErrorCategory category : values()) {
			Pattern keywords = category.keywords;
			if (keywords != null && keywords.matcher(lowerCase).find()) {
				return category;
			}
		}
		return TOOL_ERROR;
	}

	private static @Nullable ErrorCategory byType(Throwable error) {
		// The chain's own failures say what they are by their outcome
		switch (CallOutcome.ofFailure(error)) {
			case TIMED_OUT:
				return TIMEOUT;
			case RATE_LIMITED:
				return RATE_LIMIT;
			case DENIED:
			case FORBIDDEN:
				return PERMISSION;
			case INVALID_ARGUMENTS:
				return INVALID_ARGUMENTS;
			default:
				break;
		}
		if (error instanceof TimeoutException || error instanceof SocketTimeoutException) {
			return TIMEOUT;
		}
		if (error instanceof SecurityException || error instanceof AccessDeniedException) {
			return PERMISSION;
		}
		if (error instanceof IllegalArgumentException) {
			return INVALID_ARGUMENTS;
		}
		return null;
	}

}
