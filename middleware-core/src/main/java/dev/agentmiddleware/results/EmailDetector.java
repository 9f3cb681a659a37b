package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds email addresses ({@value #KIND}): a local part of letters, digits and
 * {@code . _ % + -} (at most 64 characters, no leading, trailing or double dot), an
 * {@code @}, and a domain of dot-separated labels ending in a top-level domain of letters
 * ({@code alice.o'neil@example.com} is found as {@code neil@example.com};
 * {@code user@localhost}, {@code @handle} and {@code a@b} are not addresses here). ASCII
 * addresses only.
 *
 * <p>
 * No library is used: the libraries of the JDK and of this project have no address finder
 * ({@code jakarta.mail}'s {@code InternetAddress} parses one address, it does not find
 * addresses in text, and is not on the class path). The search starts at each {@code @}
 * and is bounded on both sides, so a long text costs one scan whatever it holds.
 * Thread-safe. <pre>{@code
 * new EmailDetector().find("write to alice@example.com"); // [Match[start=9, end=26]]
 * }</pre>
 */
public final class EmailDetector implements PersonalDataDetector {

	/** The kind of this detector, {@code email}. */
	public static final String KIND = "email";

	private static final int MAX_LOCAL_PART = 64;

	private static final int MAX_DOMAIN = 253;

	// Labels of letters, digits and inner dashes (63 at most), then a top-level domain of
	// letters.
	private static final Pattern DOMAIN = Pattern
		.compile("(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.){1,126}[A-Za-z]{2,63}(?![A-Za-z0-9-])");

	@Override
	public String kind() {
		return KIND;
	}

	@Override
	public List<Match> find(String text) {
		int at = text.indexOf('@');
		if (at < 0) {
			return List.of();
		}
		List<Match> matches = new ArrayList<>(2);
		Matcher domain = DOMAIN.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
		while (at >= 0) {
			int start = localPartStart(text, at);
			int next = at + 1;
			if (start >= 0) {
				domain.region(at + 1, text.length());
				if (domain.lookingAt() && domain.end() - at - 1 <= MAX_DOMAIN) {
					matches.add(new Match(start, domain.end()));
					next = domain.end();
				}
			}
			at = text.indexOf('@', next);
		}
		return matches;
	}

	/**
	 * The start of the local part ending before the {@code @}, or -1 when there is none.
	 */
	private static int localPartStart(String text, int at) {
		int start = at;
		while (start > 0 && isLocalPartChar(text.charAt(start - 1))) {
			start--;
			if (at - start > MAX_LOCAL_PART) {
				return -1;
			}
		}
		while (start < at && text.charAt(start) == '.') {
			start++;
		}
		if (start == at || text.charAt(at - 1) == '.' || text.substring(start, at).contains("..")) {
			return -1;
		}
		return start;
	}

	private static boolean isLocalPartChar(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
				|| c == '%' || c == '+' || c == '-';
	}

}
