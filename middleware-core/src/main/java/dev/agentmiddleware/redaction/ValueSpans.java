package dev.agentmiddleware.redaction;

/**
 * Where a value written in text ends: at its closing quote or bracket, at the end of a
 * bare value or of the line. Each returns the end of the text when nothing closes the
 * value, so a cut-off value is hidden to the end.
 */
final class ValueSpans {

	private ValueSpans() {
	}

	static int closingQuote(String text, int from, char quote) {
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

	/**
	 * Just past the bracket that closes the one at {@code start}, skipping quoted
	 * strings; the end if none.
	 */
	static int closingBracket(String text, int start) {
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

	static int bareValueEnd(String text, int start) {
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

	static int lineEnd(String text, int start) {
		int i = start;
		while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r' && text.charAt(i) != '"') {
			i++;
		}
		return i;
	}

	static int skipBlanks(String text, int from) {
		int i = from;
		while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
			i++;
		}
		return i;
	}

	static int indexOfAny(String text, String chars, int from) {
		for (int i = from; i < text.length(); i++) {
			if (chars.indexOf(text.charAt(i)) >= 0) {
				return i;
			}
		}
		return text.length();
	}

}
