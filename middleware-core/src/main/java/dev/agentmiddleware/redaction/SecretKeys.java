package dev.agentmiddleware.redaction;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The secret-key rule of a {@link SecretRedactor}: splits a key into words and decides
 * whether a run of them spells a secret word followed only by qualifiers (see the
 * {@link SecretRedactor} class description).
 */
final class SecretKeys {

	/**
	 * Words that may follow a secret word in a key without making it something else
	 * ({@code secret_key}).
	 */
	private static final Set<String> QUALIFIERS = Set.of("key", "keys", "value", "values", "val", "hash", "hashed",
			"access", "confirm", "confirmation", "confirmed", "raw", "plain", "plaintext", "text", "str", "string",
			"b64", "base64", "hex", "enc", "encoded", "encrypted", "header", "pem", "data", "old", "new", "current");

	/**
	 * Short forms of {@code password}, secret only as a whole word after another
	 * ({@code DB_PASS}, {@code MYSQL_PWD}).
	 */
	private static final Set<String> PASSWORD_ABBREVIATIONS = Set.of("pass", "pwd");

	private static final Pattern WORD_BOUNDARY = Pattern.compile(
			"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])");

	private final List<String> normalizedKeys;

	private final boolean passwordAbbreviations;

	SecretKeys(Collection<String> secretKeys) {
		List<String> normalized = new ArrayList<>();
		for (String key : secretKeys) {
			String each = normalize(key);
			if (!each.isEmpty()) {
				normalized.add(each);
			}
		}
		this.normalizedKeys = List.copyOf(normalized);
		// Alone, "pass" and "pwd" are too often something else (pass=12 fail=0, the
		// shell's PWD)
		this.passwordAbbreviations = this.normalizedKeys.contains("password");
	}

	boolean isSecretKey(String key) {
		List<String> words = words(key);
		if (words.isEmpty()) {
			return false;
		}
		String whole = String.join("", words);
		for (String secret : this.normalizedKeys) {
			if (whole.endsWith(secret) || whole.endsWith(secret + "s")) {
				return true;
			}
			if (spelledBeforeQualifiers(words, secret)) {
				return true;
			}
		}
		return this.passwordAbbreviations && abbreviatedPassword(words);
	}

	private static boolean abbreviatedPassword(List<String> words) {
		for (int i = 1; i < words.size(); i++) {
			if (PASSWORD_ABBREVIATIONS.contains(words.get(i)) && onlyQualifiers(words, i + 1)) {
				return true;
			}
		}
		return false;
	}

	private boolean spelledBeforeQualifiers(List<String> words, String secret) {
		for (int from = 0; from < words.size(); from++) {
			StringBuilder run = new StringBuilder();
			for (int to = from; to < words.size() && run.length() < secret.length() + 1; to++) {
				run.append(words.get(to));
				String spelled = run.toString();
				if ((spelled.equals(secret) || spelled.equals(secret + "s")) && onlyQualifiers(words, to + 1)) {
					return true;
				}
			}
		}
		return false;
	}

	private static boolean onlyQualifiers(List<String> words, int from) {
		for (int i = from; i < words.size(); i++) {
			String word = words.get(i);
			if (!QUALIFIERS.contains(word) && !isDigits(word)) {
				return false;
			}
		}
		return true;
	}

	private static List<String> words(String key) {
		List<String> words = new ArrayList<>();
		for (String word : WORD_BOUNDARY.split(key)) {
			if (!word.isEmpty()) {
				words.add(word.toLowerCase(Locale.ROOT));
			}
		}
		return words;
	}

	private static boolean isDigits(String word) {
		for (int i = 0; i < word.length(); i++) {
			if (!Character.isDigit(word.charAt(i))) {
				return false;
			}
		}
		return !word.isEmpty();
	}

	static String normalize(String key) {
		StringBuilder normalized = new StringBuilder(key.length());
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			if (Character.isLetterOrDigit(c)) {
				normalized.append(Character.toLowerCase(c));
			}
		}
		return normalized.toString().toLowerCase(Locale.ROOT);
	}

}
