package dev.agentmiddleware.redaction;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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

	/** Words that may follow a secret word in a key without making it something else ({@code secret_key}). */
	private static final Set<String> QUALIFIERS = Set.of("key", "keys", "value", "values", "val", "hash", "hashed",
			"access", "confirm", "confirmation", "confirmed", "raw", "plain", "plaintext", "text", "str", "string",
			"b64", "base64", "hex", "enc", "encoded", "encrypted", "header", "pem", "data", "old", "new", "current");

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

	private static final Pattern WORD_BOUNDARY = Pattern
		.compile("[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])");

	private final List<String> normalizedKeys;

	private SecretRedactor(Collection<String> secretKeys) {
		List<String> normalized = new ArrayList<>();
		for (String key : secretKeys) {
			String each = normalize(key);
			if (!each.isEmpty()) {
				normalized.add(each);
			}
		}
		this.normalizedKeys = List.copyOf(normalized);
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
		return false;
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
				redaction = redactCredential(text, matcher.end(), false);
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
		int authorityEnd = indexOfAny(url, "/?#", authorityStart);
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
		int queryStart = indexOfAny(url, "?#", authorityEnd);
		redacted.append(url, authorityEnd, queryStart);
		int i = queryStart;
		while (i < url.length()) {
			redacted.append(url.charAt(i));
			int paramEnd = indexOfAny(url, "&;#", i + 1);
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

	/**
	 * The credential after a scheme name, from {@code start} (just after the name): an auth-param list
	 * ({@code username="x", response="..."}) or a token. Where the scheme stands alone in text, a token is only a
	 * credential when it looks like one.
	 */
	private static Redaction redactCredential(String text, int start, boolean authorizationValue) {
		int credentialStart = skipBlanks(text, start);
		int paramsEnd = authParamsEnd(text, credentialStart);
		if (paramsEnd > credentialStart) {
			return new Redaction(credentialStart, paramsEnd, REDACTED);
		}
		int tokenEnd = token68End(text, credentialStart);
		if (tokenEnd == credentialStart) {
			return null;
		}
		if (!authorizationValue && !looksLikeCredential(text.substring(credentialStart, tokenEnd))) {
			return null;
		}
		return new Redaction(credentialStart, tokenEnd, REDACTED);
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
			int contentEnd = closingQuote(text, valueStart + 1, first);
			return quoted(text, valueStart + 1, contentEnd, authorization);
		}
		if (first == '[' || first == '{') {
			// A JSON array or object under a secret key: all of it
			return new Redaction(valueStart, closingBracket(text, valueStart), REDACTED);
		}
		if (authorization) {
			int schemeEnd = schemeEnd(text, valueStart);
			if (schemeEnd > valueStart && schemeEnd < text.length() && (text.charAt(schemeEnd) == ' '
					|| text.charAt(schemeEnd) == '\t')) {
				Redaction credential = redactCredential(text, schemeEnd, true);
				if (credential != null) {
					return credential;
				}
			}
		}
		if (normalize(key).contains("cookie")) {
			return new Redaction(valueStart, lineEnd(text, valueStart), REDACTED);
		}
		int end = bareValueEnd(text, valueStart);
		return (end > valueStart) ? new Redaction(valueStart, end, REDACTED) : null;
	}

	/** Redacts the content of a quoted value, keeping an authorization scheme name visible. */
	private static Redaction quoted(String text, int contentStart, int contentEnd, boolean authorization) {
		if (contentEnd == contentStart) {
			return null;
		}
		if (authorization) {
			int schemeEnd = schemeEnd(text, contentStart);
			if (schemeEnd > contentStart && schemeEnd < contentEnd && text.charAt(schemeEnd) == ' ') {
				return new Redaction(schemeEnd + 1, contentEnd, REDACTED);
			}
		}
		return new Redaction(contentStart, contentEnd, REDACTED);
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

	private boolean isAuthorizationKey(String key) {
		return normalize(key).endsWith("authorization");
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

	private static boolean looksLikeCredential(String token) {
		if (token.length() < 8) {
			return false;
		}
		for (int i = 0; i < token.length(); i++) {
			char c = token.charAt(i);
			if (Character.isDigit(c) || "._~+/=".indexOf(c) >= 0 || (i > 0 && Character.isUpperCase(c))) {
				return true;
			}
		}
		return false;
	}

	/** The end of an auth-param list starting at {@code start}, or {@code start} if there is none. */
	private static int authParamsEnd(String text, int start) {
		int end = start;
		int i = start;
		while (true) {
			int nameEnd = i;
			while (nameEnd < text.length() && isTokenChar(text.charAt(nameEnd))) {
				nameEnd++;
			}
			if (nameEnd == i) {
				return end;
			}
			int equals = skipBlanks(text, nameEnd);
			if (equals >= text.length() || text.charAt(equals) != '=') {
				return end;
			}
			int value = skipBlanks(text, equals + 1);
			if (value >= text.length()) {
				return end;
			}
			char first = text.charAt(value);
			int valueEnd;
			if (first == '"') {
				int close = closingQuote(text, value + 1, '"');
				valueEnd = Math.min(close + 1, text.length());
			}
			else if (first == '=' || Character.isWhitespace(first) || first == ',') {
				// token68 padding (abc==), not a parameter
				return end;
			}
			else {
				valueEnd = value;
				while (valueEnd < text.length() && !Character.isWhitespace(text.charAt(valueEnd))
						&& text.charAt(valueEnd) != ',') {
					valueEnd++;
				}
			}
			end = valueEnd;
			int next = skipBlanks(text, valueEnd);
			if (next < text.length() && text.charAt(next) == ',') {
				i = skipBlanks(text, next + 1);
			}
			else {
				return end;
			}
		}
	}

	private static int token68End(String text, int start) {
		int i = start;
		while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || "-._~+/".indexOf(text.charAt(i)) >= 0)) {
			i++;
		}
		while (i > start && i < text.length() && text.charAt(i) == '=') {
			i++;
		}
		return i;
	}

	private static int schemeEnd(String text, int start) {
		int i = start;
		while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '-')) {
			i++;
		}
		return i;
	}

	private static boolean isTokenChar(char c) {
		return Character.isLetterOrDigit(c) || c == '_' || c == '-';
	}

	private static int closingQuote(String text, int from, char quote) {
		for (int i = from; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '\\') {
				i++;
			}
			else if (c == quote) {
				return i;
			}
		}
		return text.length();
	}

	/** Just past the bracket that closes the one at {@code start}, skipping quoted strings; the end if none. */
	private static int closingBracket(String text, int start) {
		int depth = 0;
		for (int i = start; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"') {
				i = closingQuote(text, i + 1, '"');
			}
			else if (c == '[' || c == '{') {
				depth++;
			}
			else if ((c == ']' || c == '}') && --depth == 0) {
				return i + 1;
			}
		}
		return text.length();
	}

	private static int bareValueEnd(String text, int start) {
		int i = start;
		while (i < text.length()) {
			char c = text.charAt(i);
			if (Character.isWhitespace(c) || ",;&}]\"<>".indexOf(c) >= 0
					|| (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '"')) {
				break;
			}
			i++;
		}
		return i;
	}

	private static int lineEnd(String text, int start) {
		int i = start;
		while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r' && text.charAt(i) != '"') {
			i++;
		}
		return i;
	}

	private static int skipBlanks(String text, int from) {
		int i = from;
		while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
			i++;
		}
		return i;
	}

	private static int indexOfAny(String text, String chars, int from) {
		for (int i = from; i < text.length(); i++) {
			if (chars.indexOf(text.charAt(i)) >= 0) {
				return i;
			}
		}
		return text.length();
	}

	private static boolean isDigits(String word) {
		for (int i = 0; i < word.length(); i++) {
			if (!Character.isDigit(word.charAt(i))) {
				return false;
			}
		}
		return !word.isEmpty();
	}

	private static String decode(String component) {
		try {
			return URLDecoder.decode(component, StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			return component;
		}
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

	private record Redaction(int start, int end, String replacement) {
	}

}
