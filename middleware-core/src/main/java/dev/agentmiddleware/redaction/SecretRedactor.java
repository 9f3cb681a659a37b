package dev.agentmiddleware.redaction;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises secret-bearing keys and hides their values.
 *
 * <p>A key is secret when, lower-cased and stripped of everything but letters and digits, it contains one of the
 * secret words, likewise normalised: {@code apiKey}, {@code API_KEY}, {@code x-api-key} and {@code Api.Key} all
 * match {@code api-key}. Text is redacted where it shows {@code key=value}, {@code key: value} or
 * {@code "key":"value"} with a secret key, and where it carries a bearer or basic authorization token.
 * Immutable and thread-safe.
 * <pre>{@code
 * SecretRedactor redactor = SecretRedactor.withDefaults();
 * redactor.isSecretKey("X-Api-Key");                  // true
 * redactor.redactText("login failed: password=hunter2"); // "login failed: password=[REDACTED]"
 * }</pre>
 */
public final class SecretRedactor {

	/** What replaces a secret value. */
	public static final String REDACTED = "[REDACTED]";

	/** The secret words used by {@link #withDefaults()}. */
	public static final List<String> DEFAULT_SECRET_KEYS = List.of("password", "passwd", "secret", "token",
			"api-key", "apikey", "authorization", "credential", "cookie", "private-key");

	private final List<String> normalizedKeys;

	private final Pattern keyValue;

	private static final Pattern AUTHORIZATION_TOKEN = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]+");

	private SecretRedactor(Collection<String> secretKeys) {
		List<String> normalized = new ArrayList<>();
		for (String key : secretKeys) {
			String each = normalize(key);
			if (!each.isEmpty()) {
				normalized.add(each);
			}
		}
		this.normalizedKeys = List.copyOf(normalized);
		// A key token (letters, digits, separators), optional quote, = or :, then a quoted or bare value.
		this.keyValue = Pattern.compile("([A-Za-z0-9_.\\-]+)(\"?\\s*[:=]\\s*)(\"[^\"]*\"|'[^']*'|[^\\s,;&}\\]]+)");
	}

	/**
	 * A redactor for the default secret words.
	 * @return the redactor
	 */
	public static SecretRedactor withDefaults() {
		return new SecretRedactor(DEFAULT_SECRET_KEYS);
	}

	/**
	 * A redactor for the given secret words.
	 * @param secretKeys the secret words, in any case and with any separators
	 * @return the redactor
	 */
	public static SecretRedactor of(Collection<String> secretKeys) {
		return new SecretRedactor(secretKeys);
	}

	/**
	 * Whether values under this key must be hidden.
	 * @param key a map key, parameter or header name
	 * @return {@code true} for secret keys
	 */
	public boolean isSecretKey(String key) {
		String normalized = normalize(key);
		for (String secret : this.normalizedKeys) {
			if (normalized.contains(secret)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Hides the values of secret keys and authorization tokens in free text, such as an exception message.
	 * @param text the text
	 * @return the text with secret values replaced by {@value #REDACTED}
	 */
	public String redactText(String text) {
		String redacted = AUTHORIZATION_TOKEN.matcher(text).replaceAll("$1 " + Matcher.quoteReplacement(REDACTED));
		Matcher matcher = this.keyValue.matcher(redacted);
		StringBuilder result = new StringBuilder(redacted.length());
		while (matcher.find()) {
			String replacement = isSecretKey(matcher.group(1))
					? matcher.group(1) + matcher.group(2) + REDACTED : matcher.group();
			matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
		}
		matcher.appendTail(result);
		return result.toString();
	}

	private static String normalize(String key) {
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
