package dev.agentmiddleware.redaction;

/**
 * Finds the credential after an authorization scheme name: an auth-param list
 * ({@code username="x",
 * response="..."}) or a token68, and where a scheme name ends.
 */
final class AuthorizationCredentials {

	private AuthorizationCredentials() {
	}

	/**
	 * The credential after a scheme name, from {@code start} (just after the name): an
	 * auth-param list ({@code username="x", response="..."}) or a token. Where the scheme
	 * stands alone in text, a token is only a credential when it looks like one.
	 */
	static Redaction redactCredential(String text, int start, boolean authorizationValue) {
		int credentialStart = ValueSpans.skipBlanks(text, start);
		int paramsEnd = authParamsEnd(text, credentialStart);
		if (paramsEnd > credentialStart) {
			return new Redaction(credentialStart, paramsEnd, SecretRedactor.REDACTED);
		}
		int tokenEnd = token68End(text, credentialStart);
		if (tokenEnd == credentialStart) {
			return null;
		}
		if (!authorizationValue && !looksLikeCredential(text.substring(credentialStart, tokenEnd))) {
			return null;
		}
		return new Redaction(credentialStart, tokenEnd, SecretRedactor.REDACTED);
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

	/**
	 * The end of an auth-param list starting at {@code start}, or {@code start} if there
	 * is none.
	 */
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
			int equals = ValueSpans.skipBlanks(text, nameEnd);
			if (equals >= text.length() || text.charAt(equals) != '=') {
				return end;
			}
			int value = ValueSpans.skipBlanks(text, equals + 1);
			if (value >= text.length()) {
				return end;
			}
			char first = text.charAt(value);
			int valueEnd;
			if (first == '"') {
				int close = ValueSpans.closingQuote(text, value + 1, '"');
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
			int next = ValueSpans.skipBlanks(text, valueEnd);
			if (next < text.length() && text.charAt(next) == ',') {
				i = ValueSpans.skipBlanks(text, next + 1);
			}
			else {
				return end;
			}
		}
	}

	private static int token68End(String text, int start) {
		int i = start;
		while (i < text.length()
				&& (Character.isLetterOrDigit(text.charAt(i)) || "-._~+/".indexOf(text.charAt(i)) >= 0)) {
			i++;
		}
		while (i > start && i < text.length() && text.charAt(i) == '=') {
			i++;
		}
		return i;
	}

	static int schemeEnd(String text, int start) {
		int i = start;
		while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '-')) {
			i++;
		}
		return i;
	}

	private static boolean isTokenChar(char c) {
		return Character.isLetterOrDigit(c) || c == '_' || c == '-';
	}

}
