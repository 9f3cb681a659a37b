package dev.agentmiddleware.redaction;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Recognises secret-bearing keys and hides their values, wherever they appear in text.
 *
 * <p>
 * <b>Secret keys.</b> A key is split into words at separators, case changes and digits
 * ({@code X-Api-Key}, {@code API_KEY}, {@code apiKey}, {@code api.key} are all
 * {@code api key}). It is secret when a run of its words spells one of the secret words
 * (likewise normalised, optionally plural) and every word after that run only qualifies
 * it ({@code key}, {@code value}, {@code hash}, a number, ...), or when its last word
 * ends with a secret word ({@code dbpassword}). So {@code client_secret},
 * {@code refresh_token}, {@code aws_secret_access_key},
 * {@code spring.datasource.password} and {@code passwordConfirmation} are secret, while
 * {@code secretariat}, {@code token_count} and {@code my-secret-notes.txt} merely contain
 * a secret word and are not. While {@code password} is a secret word, its short forms
 * {@code pass} and {@code pwd} count too, but only as a whole word after another
 * ({@code DB_PASS}, {@code MYSQL_PWD}; not {@code pass=12}, the shell's {@code PWD} or
 * {@code bypass}).
 *
 * <p>
 * <b>Text.</b> {@link #redactText(String)} hides, anywhere in the text:
 * <ul>
 * <li>values of secret keys written as {@code key=value}, {@code key: value},
 * {@code "key": "value"} (also escaped JSON, {@code \"key\": \"value\"}),
 * {@code 'key' => 'value'} (PHP, Ruby), {@code <key>value</key>} (XML such as Maven's
 * {@code settings.xml}), {@code define('KEY', 'value')} (PHP, with WordPress's keys and
 * salts) and URL query or fragment parameters ({@code ?api_key=...&x=1});</li>
 * <li>the user-info of URLs ({@code https://user:pass@host/} becomes
 * {@code https://[REDACTED]@host/}, also when the password holds a slash);</li>
 * <li>the credential of every authorization scheme after an {@code Authorization} or
 * {@code Proxy-Authorization} key ({@code Bearer}, {@code Basic}, {@code Token},
 * {@code Digest ... response="..."}, {@code AWS4-HMAC-SHA256 Credential=...}, any other),
 * and of the common schemes where they stand alone in text, provided what follows looks
 * like a credential (so "Token expired" stays);</li>
 * <li>tokens recognisable by their form: GitHub tokens ({@code ghp_}, {@code gho_},
 * {@code ghu_}, {@code ghs_}, {@code ghr_}, {@code github_pat_}; the prefix stays) and
 * JWTs (three or five base64url segments, the first starting {@code eyJ});</li>
 * <li>the body of PEM and PGP private keys, and the private lines and MAC of PuTTY
 * keys;</li>
 * <li>the secrets of credential files: {@code .netrc} ({@code password} and
 * {@code account}), {@code .pgpass} ({@code host:port:database:user:password}), Docker's
 * {@code config.json} ({@code "auth"} when it is base64 of {@code user:password}) and CSV
 * with a secret-named column (AWS {@code credentials.csv}, password exports).</li>
 * </ul>
 * A quoted value stays quoted ({@code "password": "[REDACTED]"}); a value whose closing
 * quote was cut off is hidden to the end of the text. Everything else is left exactly as
 * it was. Immutable and thread-safe. <pre>{@code
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
	// Canonical JSON: map entries and properties sorted, so equal arguments read the same
	private static final JsonMapper CANONICAL_JSON = JsonMapper.builder()
		.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
		.enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
		.enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
		.build();

	public static final List<String> DEFAULT_SECRET_KEYS = List.of("password", "passwd", "passphrase", "secret",
			"token", "api-key", "apikey", "authorization", "credential", "cookie", "private-key");

	/**
	 * Authorization schemes recognised where they stand alone in text (an Authorization
	 * key accepts any), lower case.
	 */
	static final String SCHEMES = "bearer|basic|token|digest|negotiate|ntlm|dpop|hoba|mutual|vapid"
			+ "|aws4-hmac-sha256|scram-sha-1|scram-sha-256|privatetoken|oauth|mac";

	private static final String KEY_AND_SEPARATOR = "(?<key>(?<![A-Za-z0-9_.\\-])[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,255})"
			+ "(?<sep>(?:\\\\?[\"'])?[ \\t]*(?:=>|[:=](?![:=]))[ \\t]*)";

	private static final Pattern KEY_SEPARATOR = Pattern.compile(KEY_AND_SEPARATOR);

	/**
	 * A database or user field of a .pgpass line (possessive: it cannot end but at a
	 * colon).
	 */
	private static final String PGPASS_FIELD = "[^\\s:\\\\\"'=,;<>(){}\\[\\]]{1,255}+";

	/** One cell of a CSV header line: a name, maybe quoted. */
	private static final String CSV_HEADER_CELL = "\"?[A-Za-z][A-Za-z0-9 _.\\-]{0,39}\"?";

	/** One base64url segment of a JWT. */
	private static final String JWT_SEGMENT = "[A-Za-z0-9_\\-]";

	// Every repetition is bounded or runs over a class its successor cannot match, so no
	// alternative backtracks
	// more than a bounded distance from where it starts: the scan stays linear in the
	// text.
	private static final Pattern CANDIDATE = Pattern.compile(
			// a URL: scheme://...
			"(?<url>(?<![A-Za-z0-9+.\\-])[A-Za-z][A-Za-z0-9+.\\-]{0,63}://[^\\s\"'<>\\\\`]+)"
					// the rarer formats, behind one check of their first character
					+ "|(?=[-Pmdge<:])(?:"
					// a PEM or PGP private key
					+ "(?<pem>-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)"
					// the private part of a PuTTY key: a line count, then that many
					// lines; then its MAC
					+ "|(?<putty>Private-Lines:[ \\t]{0,8}(?<puttyLines>[0-9]{1,4})[ \\t]{0,8}\\r?\\n)"
					+ "|(?<puttyMac>Private-(?:MAC|Hash):[ \\t]{0,8})"
					// a .netrc entry at the start of a line
					+ "|(?<netrc>(?:machine(?=[ \\t]{1,64}\\S)|default(?=[ \\t]{1,64}login[ \\t]))"
					+ "(?<=(?:^|\\n|\\\\n)[ \\t]{0,64}(?:machine|default)))"
					// PHP's define('NAME', 'value') (wp-config.php)
					+ "|(?<define>define[ \\t]{0,8}\\([ \\t]{0,8}(?<defineQuote>['\"])"
					+ "(?<defineName>[A-Za-z_][A-Za-z0-9_]{0,99})\\k<defineQuote>[ \\t]{0,8},[ \\t]{0,8})"
					// a GitHub token: classic (ghp_, gho_, ghu_, ghs_, ghr_) or
					// fine-grained
					+ "|(?<github>g(?<![A-Za-z0-9_]g)(?:h[pousr]_[A-Za-z0-9]{36,251}"
					+ "|ithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59,221})(?![A-Za-z0-9_]))"
					// a JWT (three segments, the header JSON) or a JWE (five)
					+ "|(?<jwt>eyJ(?<![A-Za-z0-9_.\\-]eyJ)" + JWT_SEGMENT + "{7,8192}\\." + JWT_SEGMENT + "{0,65536}\\."
					+ JWT_SEGMENT + "{1,8192}(?:\\." + JWT_SEGMENT + "{0,65536}\\." + JWT_SEGMENT + "{1,8192})?(?!"
					+ JWT_SEGMENT + "))"
					// an XML start tag: <password>...</password>
					+ "|(?<xml><(?<tag>[A-Za-z_][A-Za-z0-9_.:\\-]{0,100})(?:[ \\t][^<>]{0,500})?>)"
					// a .pgpass line host:port:database:user:password, from the colon
					// before the port
					+ "|(?<pgpass>:(?:[0-9]{1,5}|\\*):" + PGPASS_FIELD + ":" + PGPASS_FIELD + ":))"
					// a CSV header line (the data lines follow)
					+ "|(?<csv>(?<![^\\n])" + CSV_HEADER_CELL + "(?:," + CSV_HEADER_CELL + "){1,63}\\r?\\n)"
					// an authorization scheme followed by something on the same line
					+ "|(?<scheme>(?<![A-Za-z0-9_.\\-<])(?i:" + SCHEMES + ")(?![A-Za-z0-9_.\\-]))(?=[ \\t]+\\S)"
					// a key, an optional closing quote (maybe escaped), then =, : or =>
					+ "|" + KEY_AND_SEPARATOR);

	private static final Pattern PEM_END = Pattern.compile("-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----");

	/**
	 * The keys and salts of WordPress's wp-config.php, secret though their names are not.
	 */
	private static final Set<String> WORDPRESS_SECRETS = Set.of("AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY",
			"NONCE_KEY", "AUTH_SALT", "SECURE_AUTH_SALT", "LOGGED_IN_SALT", "NONCE_SALT");

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
	 * Whether values under this key must be hidden (see the class description for the
	 * rule).
	 * @param key a map key, parameter or header name
	 * @return {@code true} for secret keys
	 */
	public boolean isSecretKey(String key) {
		return this.keys.isSecretKey(key);
	}

	/**
	 * The arguments of a call as canonical JSON (keys sorted) with secrets hidden, fit to
	 * show to a person or to keep in a record: a value under a secret key becomes
	 * {@value #REDACTED}, and every string value is {@link #redactText(String) redacted}
	 * as text, at any depth. <pre>{@code
	 * redactor.redactedJson(Map.of("path", "a.txt", "token", "s3cr3t"));   // {"path":"a.txt","token":"[REDACTED]"}
	 * }</pre>
	 * @param arguments the arguments; a value Jackson cannot write is taken as its text
	 * @return the redacted JSON text
	 */
	public String redactedJson(Map<String, ? extends @Nullable Object> arguments) {
		JsonNode tree;
		try {
			tree = CANONICAL_JSON.valueToTree(arguments);
		}
		catch (RuntimeException ex) {
			ObjectNode fallback = CANONICAL_JSON.createObjectNode();
			arguments.forEach((name, value) -> fallback.put(name, String.valueOf(value)));
			tree = fallback;
		}
		redact(tree);
		return CANONICAL_JSON.writeValueAsString(tree);
	}

	private void redact(JsonNode node) {
		if (node instanceof ObjectNode object) {
			for (String name : object.propertyNames()) {
				JsonNode value = object.get(name);
				if (isSecretKey(name)) {
					object.put(name, REDACTED);
				}
				else if (value.isString()) {
					object.put(name, redactText(value.asString()));
				}
				else {
					redact(value);
				}
			}
		}
		else if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				JsonNode element = array.get(i);
				if (element.isString()) {
					array.set(i, array.stringNode(redactText(element.asString())));
				}
				else {
					redact(element);
				}
			}
		}
	}

	/**
	 * Hides secret values in free text, such as an exception message or a log value:
	 * values of secret keys, URL user-info and authorization credentials (see the class
	 * description).
	 * @param text the text
	 * @return the text with secret values replaced by {@value #REDACTED}; the same text
	 * when it holds none
	 */
	public String redactText(String text) {
		return RedactionCandidates.possibleIn(text) ? redactCandidates(text) : text;
	}

	/**
	 * {@link #redactText(String)} without its pre-check: every candidate in the text is
	 * looked at.
	 */
	String redactCandidates(String text) {
		Matcher matcher = CANDIDATE.matcher(text);
		StringBuilder result = null;
		int copied = 0;
		int from = 0;
		while (from < text.length() && matcher.find(from)) {
			Redaction redaction;
			// Where to look again when this candidate holds no secret
			int next = matcher.end();
			if (matcher.start("url") >= 0) {
				redaction = redactUrl(text, matcher.start(), matcher.end());
			}
			else if (matcher.start("pem") >= 0) {
				redaction = redactPem(text, matcher.end());
			}
			else if (matcher.start("putty") >= 0) {
				redaction = CredentialFiles.puttyPrivateLines(text, matcher.end(),
						Integer.parseInt(matcher.group("puttyLines")));
			}
			else if (matcher.start("puttyMac") >= 0) {
				int end = ValueSpans.bareValueEnd(text, matcher.end());
				redaction = (end > matcher.end()) ? new Redaction(matcher.end(), end, REDACTED) : null;
			}
			else if (matcher.start("github") >= 0) {
				// The prefix stays: it tells the reader what kind of token was there
				int prefixEnd = matcher.start() + (text.startsWith("github_pat_", matcher.start()) ? 11 : 4);
				redaction = new Redaction(prefixEnd, matcher.end(), REDACTED);
			}
			else if (matcher.start("jwt") >= 0) {
				redaction = new Redaction(matcher.start(), matcher.end(), REDACTED);
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
			else if (matcher.start("key") >= 0) {
				redaction = redactKeyValue(text, matcher.group("key"), matcher.end());
				next = matcher.end("key");
			}
			else {
				// The credential files: what started like one may be ordinary text
				// holding other candidates
				next = matcher.start() + 1;
				if (matcher.start("netrc") >= 0) {
					redaction = CredentialFiles.netrc(text, matcher.start());
				}
				else if (matcher.start("define") >= 0) {
					redaction = redactDefine(text, matcher.group("defineName"), matcher.end());
				}
				else if (matcher.start("xml") >= 0) {
					redaction = redactElement(text, matcher.group("tag"), matcher.end());
				}
				else if (matcher.start("csv") >= 0) {
					redaction = CredentialFiles.csv(this, text, matcher.start(), matcher.end());
				}
				else {
					redaction = CredentialFiles.pgpass(text, matcher.start(), matcher.end());
				}
			}
			if (redaction == null) {
				from = next;
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
		if (at < authorityStart) {
			at = slashedUserInfoEnd(url, authorityStart, authorityEnd);
			if (at >= 0) {
				authorityEnd = ValueSpans.indexOfAny(url, "/?#", at + 1);
			}
		}
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

	/**
	 * The {@code @} ending a user-info whose password holds a slash
	 * ({@code https://u:pa/ss@host}), where what looks like the authority ({@code u:pa})
	 * has a colon not followed by a port; {@code -1} if there is none.
	 */
	private static int slashedUserInfoEnd(String url, int authorityStart, int authorityEnd) {
		int colon = url.indexOf(':', authorityStart);
		if (colon < 0 || colon >= authorityEnd || isPort(url, colon + 1, authorityEnd)) {
			return -1;
		}
		int queryStart = ValueSpans.indexOfAny(url, "?#", authorityEnd);
		int firstAt = url.indexOf('@', authorityEnd);
		if (firstAt < 0 || firstAt >= queryStart) {
			return -1;
		}
		int hostEnd = ValueSpans.indexOfAny(url, "/?#", firstAt + 1);
		return url.lastIndexOf('@', hostEnd - 1);
	}

	private static boolean isPort(String url, int start, int end) {
		for (int i = start; i < end; i++) {
			if (!Character.isDigit(url.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	private static Redaction redactPem(String text, int bodyStart) {
		Matcher end = PEM_END.matcher(text);
		int bodyEnd = end.find(bodyStart) ? end.start() : text.length();
		return new Redaction(bodyStart, bodyEnd, REDACTED);
	}

	private Redaction redactKeyValue(String text, String key, int valueStart) {
		if (valueStart >= text.length()) {
			return null;
		}
		if (!isSecretKey(key)) {
			return key.equals("auth") ? redactDockerAuth(text, valueStart) : null;
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
			if (schemeEnd > valueStart && schemeEnd < text.length()
					&& (text.charAt(schemeEnd) == ' ' || text.charAt(schemeEnd) == '\t')) {
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

	/**
	 * A Docker {@code config.json} {@code "auth"}: base64 of {@code user:password},
	 * unlike other auth values.
	 */
	private static Redaction redactDockerAuth(String text, int valueStart) {
		char first = text.charAt(valueStart);
		int start = (first == '"' || first == '\'') ? valueStart + 1 : valueStart;
		int end = (start > valueStart) ? ValueSpans.closingQuote(text, start, first)
				: ValueSpans.bareValueEnd(text, start);
		if (end - start < 8 || end - start > 4096) {
			return null;
		}
		try {
			String decoded = new String(Base64.getDecoder().decode(text.substring(start, end)),
					StandardCharsets.ISO_8859_1);
			return (decoded.indexOf(':') > 0) ? new Redaction(start, end, REDACTED) : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	/**
	 * PHP's {@code define('DB_PASSWORD', 'value')}: a quoted value under a secret name.
	 */
	private Redaction redactDefine(String text, String name, int valueStart) {
		if (valueStart >= text.length() || !(isSecretKey(name) || WORDPRESS_SECRETS.contains(name))) {
			return null;
		}
		char quote = text.charAt(valueStart);
		if (quote != '\'' && quote != '"') {
			return null;
		}
		return quoted(text, valueStart + 1, ValueSpans.closingQuote(text, valueStart + 1, quote), false);
	}

	/**
	 * The text of an XML element with a secret name ({@code <password>s3cr3t</password>},
	 * Maven's {@code settings.xml}), when its end tag follows or the text ends inside a
	 * one-word value.
	 */
	private Redaction redactElement(String text, String tag, int contentStart) {
		if (!isSecretKey(tag)) {
			return null;
		}
		int contentEnd = text.indexOf('<', contentStart);
		if (contentEnd < 0) {
			// cut off: only a single word, not prose that mentions the element
			contentEnd = text.length();
			if (ValueSpans.bareValueEnd(text, contentStart) != contentEnd) {
				return null;
			}
		}
		else if (!text.startsWith("</" + tag, contentEnd) || contentEnd + tag.length() + 2 >= text.length()
				|| ">\t\n\r ".indexOf(text.charAt(contentEnd + tag.length() + 2)) < 0) {
			return null;
		}
		return text.substring(contentStart, contentEnd).isBlank() ? null
				: new Redaction(contentStart, contentEnd, REDACTED);
	}

	/**
	 * Redacts the content of a quoted value, keeping an authorization scheme name
	 * visible.
	 */
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
