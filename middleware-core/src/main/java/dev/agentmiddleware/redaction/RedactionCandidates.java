package dev.agentmiddleware.redaction;

import java.util.List;
import java.util.Locale;

/**
 * A cheap test, before the full scan of {@link SecretRedactor#redactText(String)},
 * whether a text can hold anything that scan could redact. Most tool results (an id, a
 * word, a line of prose) hold none of the characters and words that every candidate
 * needs, and the full scan tries each of its alternatives at every position of the text.
 * The test is conservative: it may answer {@code true} for a harmless text, never
 * {@code false} for a text the scan would change.
 *
 * <p>
 * What each alternative of {@code SecretRedactor}'s candidate pattern needs, at the
 * least:
 * <ul>
 * <li>a key and its separator ({@code key=v}, {@code key: v}, {@code "key": "v"},
 * {@code \"key\": \"v\"}, {@code 'key' => 'v'}, also the key after a scheme name,
 * {@code token : abc}): {@code :} or {@code =};</li>
 * <li>a URL ({@code scheme://}), with the parameters it redacts as text in turn: a
 * {@code :};</li>
 * <li>a {@code .pgpass} line ({@code host:port:...}) and the private lines and MAC of a
 * PuTTY key ({@code Private-Lines:}, {@code Private-MAC:}): {@code :};</li>
 * <li>an XML start tag: {@code <};</li>
 * <li>a CSV header line and its data lines: {@code ,} and a line feed;</li>
 * <li>a PEM or PGP private key: {@code -----BEGIN };</li>
 * <li>a {@code .netrc} entry: {@code machine} or {@code default} (case as written);</li>
 * <li>PHP's {@code define(}: {@code define};</li>
 * <li>a GitHub token: {@code ghp_}, {@code gho_}, {@code ghu_}, {@code ghs_},
 * {@code ghr_} or {@code github_pat_};</li>
 * <li>a JWT or JWE: {@code eyJ};</li>
 * <li>an authorization scheme standing alone ({@code Bearer abc...}): the name of one of
 * {@link SecretRedactor#SCHEMES} in any case. The pattern folds only ASCII letters; the
 * test lower-cases the text with {@link String#toLowerCase(Locale)}, which maps ASCII as
 * the pattern does and may only add matches.</li>
 * </ul>
 * The secrets a credential file or a URL holds in turn (a CSV cell, a URL parameter) are
 * redacted through {@link SecretRedactor#redactText(String)} again, which applies this
 * same test to them.
 */
final class RedactionCandidates {

	/**
	 * Words that candidates need, as written (the pattern matches them case-sensitively).
	 * The scheme {@code mac} covers {@code machine} too; it stays for the .netrc entry.
	 */
	private static final List<String> WORDS = List.of("-----BEGIN ", "machine", "default", "define", "ghp_", "gho_",
			"ghu_", "ghs_", "ghr_", "github_pat_", "eyJ");

	/** The authorization scheme names, lower case. */
	private static final List<String> SCHEMES = List.of(SecretRedactor.SCHEMES.split("\\|"));

	private RedactionCandidates() {
	}

	/**
	 * Whether the text can hold a candidate of {@link SecretRedactor#redactText(String)}.
	 * @param text the text
	 * @return {@code false} only if the full scan would leave the text as it is
	 */
	static boolean possibleIn(String text) {
		boolean comma = false;
		boolean lineFeed = false;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == ':' || c == '=' || c == '<') {
				return true;
			}
			comma |= (c == ',');
			lineFeed |= (c == '\n');
		}
		if (comma && lineFeed) {
			return true;
		}
		for (String word : WORDS) {
			if (text.contains(word)) {
				return true;
			}
		}
		// Returns the text itself when it has no upper-case letter
		String lowerCase = text.toLowerCase(Locale.ROOT);
		for (String scheme : SCHEMES) {
			if (lowerCase.contains(scheme)) {
				return true;
			}
		}
		return false;
	}

}
