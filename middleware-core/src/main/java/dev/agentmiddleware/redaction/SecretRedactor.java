package dev.agentmiddleware.redaction;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises secret-bearing keys and hides their values, wherever they appear in text.
 *
 * <p><b>Secret keys.</b> A key is split into words at separators, case changes and digits ({@code X-Api-Key},
 * {@code API_KEY}, {@code apiKey}, {@code api.key} are all {@code api key}). It is secret when a run of its words
 * spells one of the secret words (likewise normalised, optionally plural) and every word after that run only
 * qualifies it ({@code key}, {@code value}, {@code hash}, a number, ...), or when its last word ends with a secret
 * word ({@code dbpassword}). So {@code client_secret}, {@code refresh_token}, {@code aws_secret_access_key},
 * {@code spring.datasource.password} and {@code passwordConfirmation} are secret, while {@code secretariat},
 * {@code token_count} and {@code my-secret-notes.txt} merely contain a secret word and are not.
 *
 * <p><b>Text.</b> {@link #redactText(String)} hides, anywhere in the text:
 * <ul>
 * <li>values of secret keys written as {@code key=value}, {@code key: value}, {@code "key": "value"} (also
 * escaped JSON, {@code \"key\": \"value\"}) and URL query or fragment parameters ({@code ?api_key=...&x=1});</li>
 * <li>the user-info of URLs ({@code https://user:pass@host/} becomes {@code https://[REDACTED]@host/});</li>
 * <li>the credential of every authorization scheme after an {@code Authorization} or
 * {@code Proxy-Authorization} key ({@code Bearer}, {@code Basic}, {@code Token}, {@code Digest ... response="..."},
 * {@code AWS4-HMAC-SHA256 Credential=...}, any other), and of the common schemes where they stand alone in text,
 * provided what follows looks like a credential (so "Token expired" stays);</li>
 * <li>the body of PEM private keys.</li>
 * </ul>
 * A quoted value stays quoted ({@code "password": "[REDACTED]"}); a value whose closing quote was cut off is
 * hidden to the end of the text. Everything else is left exactly as it was. Immutable and thread-safe.
 * <pre>{@code
 * SecretRedactor redactor = SecretRedactor.withDefaults();
 * redactor.isSecretKey("X-Api-Key");                        // true
 * redactor.isSecretKey("my-secret-notes.txt");              // false
 * redactor.redactText("login failed: password=hunter2");    // "login failed: password=[REDACTED]"
 * redactor.redactText("GET https://u:p@h/v1?api_key=k1&q=2"); // "GET https://[REDACTED]@h/v1?api_key=[REDACTED]&q=2"
 * redactor.redactText("Authorization: Token abc123");       // "Authorization: Token [REDACTED]"
 * }</pre>
 */
public final class SecretRedactor {

	/** What replaces a secret value. */
	public static final String REDACTED = "[REDACTED]";

	/** The secret words used by {@link #withDefaults()}. */
	public static final List<String> DEFAULT_SECRET_KEYS = List.of("password", "passwd", "secret", "token",
			"api-key", "apikey", "authorization", "credential", "cookie", "private-key");

	/** Authorization schemes recognised where they stand alone in text (an Authorization key accepts any). */
	private static final String SCHEMES = "bearer|basic|token|digest|negotiate|ntlm|dpop|hoba|mutual|vapid"
			+ "|aws4-hmac-sha256|scram-sha-1|scram-sha-256|privatetoken|oauth|mac";

	private static final String KEY_AND_SEPARATOR = "(?<key>(?<![A-Za-z0-9_.\\-])[A-Za-z0-9_][A-Za-z0-9_.\\-]*)"
			+ "(?<sep>(?:\\\\?[\"'])?[ \\t]*[:=](?![:=])[ \\t]*)";

	private static final Pattern KEY_SEPARATOR = Pattern.compile(KEY_AND_SEPARATOR);

	private static final Pattern CANDIDATE = Pattern.compile(
			// a URL: scheme://...
			"(?<url>(?<![A-Za-z0-9+.\\-])[A-Za-z][A-Za-z0-9+.\\-]*://[^\\s\"'<>\\\\`]+)"
					// a PEM private key
					+ "|(?<pem>-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)"
					// an authorization scheme followed by something on the same line
					+ "|(?<scheme>(?<![A-Za-z0-9_.\\-])(?i:" + SCHEMES + ")(?![A-Za-z0-9_.\\-]))(?=[ \\t]+\\S)"
					// a key, an optional closing quote (maybe escaped), then = or :
					+ "|" + KEY_AND_SEPARATOR);

	private static final Pattern PEM_END = Pattern.compile("-----END [A-Z0-9 ]*PRIVATE KEY-----");

	private final SecretKeys keys;

	private SecretRedactor(Collection<String> secretKeys) {
		this.keys = new SecretKeys(secretKeys);
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
	 * Whether values under this key must be hidden (see the class description for the rule).
	 * @param key a map key, parameter or header name
	 * @return {@code true} for secret keys
	 */
	public boolean isSecretKey(String key) {
		return this.keys.isSecretKey(key);
	}

	/**
	 * Hides secret values in free text, such as an exception message or a log value: values of secret keys,
	 * URL user-info and authorization credentials (see the class description).
	 * @param text the text
	 * @return the text with secret values replaced by {@value #REDACTED}; the same text when it holds none
	 */
	public String redactText(String text) {
		Matcher matcher = CANDIDATE.matcher(text);
		StringBuilder result = null;
		int copied = 0;
		int from = 0;
		while (from < text.length() && matcher.find(from)) {
			Redaction redaction;
			if (matcher.start("url") >= 0) {
				redaction = redactUrl(text, matcher.start(), matcher.end());
			}
			else if (matcher.start("pem") >= 0) {
				redaction = redactPem(text, matcher.end());
			}
			else if (matcher.start("scheme") >= 0) {
				redaction = AuthorizationCredentials.redactCredential(text, matcher.end(), false);
				if (redaction == null) {
					// "token : abc" is a key and a value, not a scheme and a credential
					Matcher keyValue = KEY_SEPARATOR.matcher(text)
						.region(matcher.start(), text.length())
						.useTransparentBounds(true)
						.useAnchoringBounds(false);
					if (keyValue.lookingAt()) {
						redaction = redactKeyValue(text, keyValue.group("key"), keyValue.end());
					}
				}
			}
			else {
				redaction = redactKeyValue(text, matcher.group("key"), matcher.end());
			}
			if (redaction == null) {
				// Nothing secret here: look again just after this candidate's first character run.
				from = (matcher.start("key") >= 0) ? matcher.end("key") : matcher.end();
				continue;
			}
			if (result == null) {
				result = new StringBuilder(text.length() + 16);
			}
			result.append(text, copied, redaction.start()).append(redaction.replacement());
			copied = redaction.end();
			from = Math.max(redaction.end(), matcher.end());
		}
		if (result == null) {
			return text;
		}
		return result.append(text, copied, text.length()).toString();
	}

	private Redaction redactUrl(String text, int start, int end) {
		// Trailing sentence punctuation is not part of the URL.
		while (end > start && ".,;:!?)]}".indexOf(text.charAt(end - 1)) >= 0) {
			end--;
		}
		String url = text.substring(start, end);
		int authorityStart = url.indexOf("://") + 3;
		int authorityEnd = ValueSpans.indexOfAny(url, "/?#", authorityStart);
		StringBuilder redacted = new StringBuilder(url.length());
		int at = url.lastIndexOf('@', authorityEnd - 1);
		boolean changed = false;
		if (at >= authorityStart) {
			redacted.append(url, 0, authorityStart).append(REDACTED).append(url, at, authorityEnd);
			changed = true;
		}
		else {
			redacted.append(url, 0, authorityEnd);
		}
		// Path, then query and fragment parameters.
		int queryStart = ValueSpans.indexOfAny(url, "?#", authorityEnd);
		redacted.append(url, authorityEnd, queryStart);
		int i = queryStart;
		while (i < url.length()) {
			redacted.append(url.charAt(i));
			int paramEnd = ValueSpans.indexOfAny(url, "&;#", i + 1);
			String param = url.substring(i + 1, paramEnd);
			int equals = param.indexOf('=');
			if (equals > 0 && isSecretKey(decode(param.substring(0, equals)))) {
				redacted.append(param, 0, equals + 1).append(REDACTED);
				changed = true;
			}
			else {
				// An ordinary parameter's value may still carry a secret (q=password:abc)
				String shown = redactText(param);
				changed |= !shown.equals(param);
				redacted.append(shown);
			}
			i = paramEnd;
		}
		return changed ? new Redaction(start, end, redacted.toString()) : null;
	}

	private static Redaction redactPem(String text, int bodyStart) {
		Matcher end = PEM_END.matcher(text);
		int bodyEnd = end.find(bodyStart) ? end.start() : text.length();
		return new Redaction(bodyStart, bodyEnd, REDACTED);
	}

	private Redaction redactKeyValue(String text, String key, int valueStart) {
		if (!isSecretKey(key)) {
			return null;
		}
		if (valueStart >= text.length()) {
			return null;
		}
		boolean authorization = isAuthorizationKey(key);
		char first = text.charAt(valueStart);
		if (first == '\\' && valueStart + 1 < text.length() && text.charAt(valueStart + 1) == '"') {
			int close = text.indexOf("\\\"", valueStart + 2);
			int contentEnd = (close >= 0) ? close : text.length();
			return quoted(text, valueStart + 2, contentEnd, authorization);
		}
		if (first == '"' || first == '\'') {
			int contentEnd = ValueSpans.closingQuote(text, valueStart + 1, first);
			return quoted(text, valueStart + 1, contentEnd, authorization);
		}
		if (first == '[' || first == '{') {
			// A JSON array or object under a secret key: all of it
			return new Redaction(valueStart, ValueSpans.closingBracket(text, valueStart), REDACTED);
		}
		if (authorization) {
			int schemeEnd = AuthorizationCredentials.schemeEnd(text, valueStart);
			if (schemeEnd > valueStart && schemeEnd < text.length() && (text.charAt(schemeEnd) == ' '
					|| text.charAt(schemeEnd) == '\t')) {
				Redaction credential = AuthorizationCredentials.redactCredential(text, schemeEnd, true);
				if (credential != null) {
					return credential;
				}
			}
		}
		if (SecretKeys.normalize(key).contains("cookie")) {
			return new Redaction(valueStart, ValueSpans.lineEnd(text, valueStart), REDACTED);
		}
		int end = ValueSpans.bareValueEnd(text, valueStart);
		return (end > valueStart) ? new Redaction(valueStart, end, REDACTED) : null;
	}

	/** Redacts the content of a quoted value, keeping an authorization scheme name visible. */
	private static Redaction quoted(String text, int contentStart, int contentEnd, boolean authorization) {
		if (contentEnd == contentStart) {
			return null;
		}
		if (authorization) {
			int schemeEnd = AuthorizationCredentials.schemeEnd(text, contentStart);
			if (schemeEnd > contentStart && schemeEnd < contentEnd && text.charAt(schemeEnd) == ' ') {
				return new Redaction(schemeEnd + 1, contentEnd, REDACTED);
			}
		}
		return new Redaction(contentStart, contentEnd, REDACTED);
	}

	private boolean isAuthorizationKey(String key) {
		return SecretKeys.normalize(key).endsWith("authorization");
	}

	private static String decode(String component) {
		try {
			return URLDecoder.decode(component, StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			return component;
		}
	}

}
