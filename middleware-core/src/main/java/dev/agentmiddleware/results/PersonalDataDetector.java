package dev.agentmiddleware.results;

import java.util.List;
import java.util.Locale;

/**
 * Finds one kind of personal data in text, so that the {@link ResultGuardMiddleware}
 * masks it in the results of the tools whose {@link ResultPolicy#personalData()} names
 * the kind, and the logs mask it in their arguments and results. The built-ins are
 * {@link EmailDetector} ({@value EmailDetector#KIND}), {@link PhoneNumberDetector}
 * ({@value PhoneNumberDetector#KIND}), {@link PaymentCardDetector}
 * ({@value PaymentCardDetector#KIND}) and {@link IbanDetector}
 * ({@value IbanDetector#KIND}); a detector of your own names its own kind.
 *
 * <p>
 * A detector is given every string of a result: a text result whole, and each string
 * value of a structured result (not its keys, numbers or booleans). What it finds is
 * replaced by its {@link #mask(String) mask}, by default the kind in capitals in brackets
 * ({@code [EMAIL]}), like {@code [REDACTED]} for secrets. Where the finds of several
 * detectors overlap, the longest is masked. Detectors must be thread-safe and should be
 * fast: they run on every string of every guarded result; return an empty list quickly
 * for text that cannot hold your kind. <pre>{@code
 * final class EmployeeIdDetector implements PersonalDataDetector {
 *
 *     private static final Pattern ID = Pattern.compile("\\bEMP-\\d{6}\\b");
 *
 *     public String kind() {
 *         return "employee-id";
 *     }
 *
 *     public List<Match> find(String text) {
 *         return ID.matcher(text).results().map((found) -> new Match(found.start(), found.end())).toList();
 *     }
 *
 * }
 * }</pre>
 */
public interface PersonalDataDetector {

	/**
	 * The kind of personal data this detector finds, as named in
	 * {@link ResultPolicy#personalData()} and in configuration
	 * ({@code detectors: [email, employee-id]}), and as counted; unique among the
	 * detectors of a middleware.
	 * @return the kind: lower case letters, digits and dashes, such as {@code email}
	 */
	String kind();

	/**
	 * Finds the personal data in a text.
	 * @param text the text, such as a string value of a result
	 * @return where the data is, in any order; an empty list when there is none
	 */
	List<Match> find(String text);

	/**
	 * What replaces one find.
	 * @param value the text found
	 * @return the mask; by default {@code [KIND]}, such as {@code [EMAIL]}
	 */
	default String mask(String value) {
		return "[" + kind().toUpperCase(Locale.ROOT) + "]";
	}

	/**
	 * Where a detector found personal data in a text.
	 *
	 * @param start the index of its first character
	 * @param end the index after its last character
	 */
	record Match(int start, int end) {

		/**
		 * Checks the match.
		 * @throws IllegalArgumentException when it is empty or {@code start} is negative
		 */
		public Match {
			if (start < 0 || end <= start) {
				throw new IllegalArgumentException(
						"A match must start at 0 or later and end after its start, was " + start + ".." + end);
			}
		}

	}

}
