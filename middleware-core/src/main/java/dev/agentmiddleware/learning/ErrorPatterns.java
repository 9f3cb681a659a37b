package dev.agentmiddleware.learning;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

import dev.agentmiddleware.redaction.SecretRedactor;
import org.jspecify.annotations.Nullable;

/**
 * Turns a failure into the error pattern {@link ErrorPatternStore} counts it under: the
 * cause that says what went wrong, its message without the call's argument values,
 * secrets redacted and details normalised (see the {@link ErrorPatternStore} class
 * description).
 */
final class ErrorPatterns {

	private static final String NO_MESSAGE = "(no message)";

	private static final String ARGUMENT = "<arg>";

	// Shorter values are replaced only where they stand as a word of their own, not
	// inside ordinary words
	private static final int MIN_ARGUMENT_LENGTH = 4;

	private static final int MAX_ARGUMENT_VALUES = 100;

	private static final int MAX_ARGUMENT_DEPTH = 5;

	private static final Pattern[] PATTERNS = {
			Pattern.compile("(?i)\\b[a-z][a-z0-9+.-]*://[^\\s'\"<>]*[^\\s'\"<>.,;:!?)\\]}]"),
			Pattern.compile("[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+"),
			Pattern.compile(
					"\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2}\\b)?)?"
							+ "|\\b\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?\\b"),
			Pattern.compile("\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b"),
			Pattern
				.compile("(?i)(?<![\\w])(?:[a-z]:\\\\|\\\\\\\\[\\w.$-]+\\\\)(?:[^\\s'\"<>|]*[^\\s'\"<>|.,;:!?)\\]])?"),
			Pattern.compile("(?<![\\w/:.~-])(?:~|\\.\\.?)?(?:/[\\w.@%+=~-]+)+/?"),
			Pattern.compile("(?<![\\w])'(?!<\\w+>')[^'\\n]{1,200}'(?![\\w])|\"(?!<\\w+>\")[^\"\\n]{1,200}\""),
			Pattern.compile("\\b(?:0x[0-9a-fA-F]+|(?=[0-9a-fA-F]*\\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{6,}"
					+ "|(?=\\w*\\d)(?=\\w*[A-Za-z])\\w{8,})\\b"),
			Pattern.compile("\\d+(?:[.,]\\d+)*"), Pattern.compile("\\s+") };

	private static final String[] REPLACEMENTS = { "<url>", "<email>", "<time>", "<id>", "<path>", "<path>",
			"'<value>'", "<id>", "<n>", " " };

	private final SecretRedactor redactor;

	ErrorPatterns(SecretRedactor redactor) {
		this.redactor = redactor;
	}

	String normalise(@Nullable String message) {
		if (message == null || message.isBlank()) {
			return NO_MESSAGE;
		}
		String text = this.redactor.redactText(message);
		for (int i = 0; i < PATTERNS.length; i++) {
			text = PATTERNS[i].matcher(text).replaceAll(REPLACEMENTS[i]);
		}
		text = text.strip();
		return (text.length() <= ErrorPatternStore.MAX_PATTERN_LENGTH) ? text
				: text.substring(0, ErrorPatternStore.MAX_PATTERN_LENGTH - 1) + "…";
	}

	static String withoutArguments(String message, Map<String, @Nullable Object> params) {
		if (params.isEmpty()) {
			return message;
		}
		List<String> values = new ArrayList<>();
		collectStrings(params.values(), values, 0);
		values.sort(Comparator.comparingInt(String::length).reversed());
		String text = message;
		for (String value : values) {
			if (value.length() >= MIN_ARGUMENT_LENGTH) {
				text = text.replace(value, ARGUMENT);
			}
			else if (text.contains(value)) {
				text = Pattern.compile("(?<![\\w])" + Pattern.quote(value) + "(?![\\w])")
					.matcher(text)
					.replaceAll(ARGUMENT);
			}
		}
		return text;
	}

	private static void collectStrings(@Nullable Object value, List<String> values, int depth) {
		if (value == null || depth > MAX_ARGUMENT_DEPTH || values.size() >= MAX_ARGUMENT_VALUES) {
			return;
		}
		if (value instanceof CharSequence text) {
			if (!text.toString().isBlank()) {
				values.add(text.toString());
			}
		}
		else if (value instanceof Map<?, ?> map) {
			collectStrings(map.values(), values, depth + 1);
		}
		else if (value instanceof Iterable<?> iterable) {
			for (Object each : iterable) {
				collectStrings(each, values, depth + 1);
			}
		}
		else if (value instanceof Object[] array) {
			for (Object each : array) {
				collectStrings(each, values, depth + 1);
			}
		}
	}

	// Wrappers added by reflection and executors say nothing about what went wrong.
	static Throwable unwrap(Throwable error) {
		Throwable each = error;
		for (int i = 0; i < 10; i++) {
			Throwable cause = each.getCause();
			boolean wrapper = each instanceof ExecutionException || each instanceof CompletionException
					|| each instanceof InvocationTargetException || each instanceof UndeclaredThrowableException;
			if (!wrapper || cause == null || cause == each) {
				return each;
			}
			each = cause;
		}
		return each;
	}

}
