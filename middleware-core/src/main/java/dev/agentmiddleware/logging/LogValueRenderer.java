package dev.agentmiddleware.logging;

import java.lang.reflect.Array;
import java.util.Collection;
import java.util.Map;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContents;
import org.jspecify.annotations.Nullable;

/**
 * Renders argument values, results and messages for a log line: maps as
 * {@code {key=value}}, collections and arrays as {@code [a, b]}, strings quoted, a rich
 * result as its parts (texts quoted, binary data only as its type and size:
 * {@code ["Sales", Image "[image/png, 12,345 bytes]"]}); values under secret keys
 * replaced, free text (strings, other objects' {@code toString()}) redacted and then
 * masked (when a masking is given, such as of personal data), long values cut. Everything
 * stays on one line.
 */
final class LogValueRenderer {

	static final String ELLIPSIS = "…";

	private static final int MAX_ELEMENTS = 20;

	private static final int MAX_DEPTH = 6;

	private static final int REDACTION_LOOKAHEAD = 1024;

	private final SecretRedactor redactor;

	private final @Nullable UnaryOperator<String> masking;

	LogValueRenderer(SecretRedactor redactor, @Nullable UnaryOperator<String> masking) {
		this.redactor = redactor;
		this.masking = masking;
	}

	void appendArguments(StringBuilder line, Map<String, ? extends @Nullable Object> arguments, int maxLength) {
		appendMap(line, arguments, maxLength, 0);
	}

	void appendValue(StringBuilder line, @Nullable Object value, int maxLength, int depth) {
		if (value == null) {
			line.append("null");
		}
		else if (value instanceof CharSequence || value instanceof Character) {
			appendText(line, value.toString(), maxLength);
		}
		else if (value instanceof Number || value instanceof Boolean) {
			line.append(value);
		}
		else if (value instanceof Enum<?> constant) {
			line.append(constant.name());
		}
		else if (depth >= MAX_DEPTH) {
			line.append(ELLIPSIS);
		}
		else if (value instanceof Map<?, ?> map) {
			appendMap(line, map, maxLength, depth);
		}
		else if (value instanceof Collection<?> collection) {
			appendCollection(line, collection, maxLength, depth);
		}
		else if (value instanceof ToolContents contents) {
			appendContents(line, contents, maxLength);
		}
		else if (value instanceof byte[] bytes) {
			line.append("byte[").append(bytes.length).append(']');
		}
		else if (value.getClass().isArray()) {
			appendArray(line, value, maxLength, depth);
		}
		else {
			appendText(line, toString(value), maxLength);
		}
	}

	/**
	 * Appends text quoted, cut to {@code maxLength} and redacted; quotes, backslashes and
	 * line breaks are escaped.
	 */
	void appendText(StringBuilder line, String text, int maxLength) {
		// Redact a bounded window, not the whole text, so that a huge value costs no more
		// than a long one; the
		// window reaches past the cut so that what makes a secret recognisable (the '@'
		// ending a URL's user-info,
		// a closing quote) is seen even when the cut falls inside the secret. The cut
		// comes after redacting.
		boolean windowed = text.length() > maxLength + REDACTION_LOOKAHEAD;
		String redacted = this.redactor
			.redactText(windowed ? text.substring(0, maxLength + REDACTION_LOOKAHEAD) : text);
		if (this.masking != null) {
			redacted = this.masking.apply(redacted);
		}
		boolean cut = windowed || redacted.length() > maxLength;
		String shown = (redacted.length() > maxLength) ? redacted.substring(0, maxLength - 1) : redacted;
		line.append('"');
		appendEscaped(line, shown);
		if (cut) {
			line.append(ELLIPSIS);
		}
		line.append('"');
	}

	/**
	 * Appends a value that is normally one token (an id) as is, or quoted and escaped
	 * when it contains spaces, quotes, {@code =} or control characters.
	 */
	static void appendToken(StringBuilder line, String token) {
		if (!token.isEmpty() && isPlain(token)) {
			line.append(token);
		}
		else {
			line.append('"');
			appendEscaped(line, token);
			line.append('"');
		}
	}

	/**
	 * The first line of a message, cut and redacted, quoted.
	 */
	void appendMessage(StringBuilder line, @Nullable String message, int maxLength) {
		if (message == null) {
			line.append("null");
			return;
		}
		int end = message.length();
		for (int i = 0; i < message.length(); i++) {
			char c = message.charAt(i);
			if (c == '\n' || c == '\r') {
				end = i;
				break;
			}
		}
		appendText(line, message.substring(0, end), maxLength);
	}

	private void appendMap(StringBuilder line, Map<?, ?> map, int maxLength, int depth) {
		line.append('{');
		int count = 0;
		for (Map.Entry<?, ?> entry : map.entrySet()) {
			if (count == MAX_ELEMENTS) {
				line.append(", ").append(ELLIPSIS).append("(+").append(map.size() - count).append(')');
				break;
			}
			if (count++ > 0) {
				line.append(", ");
			}
			String key = String.valueOf(entry.getKey());
			appendToken(line, key);
			line.append('=');
			if (this.redactor.isSecretKey(key)) {
				line.append(SecretRedactor.REDACTED);
			}
			else {
				appendValue(line, entry.getValue(), maxLength, depth + 1);
			}
		}
		line.append('}');
	}

	private void appendCollection(StringBuilder line, Collection<?> collection, int maxLength, int depth) {
		line.append('[');
		int count = 0;
		for (Object element : collection) {
			if (count == MAX_ELEMENTS) {
				line.append(", ").append(ELLIPSIS).append("(+").append(collection.size() - count).append(')');
				break;
			}
			if (count++ > 0) {
				line.append(", ");
			}
			appendValue(line, element, maxLength, depth + 1);
		}
		line.append(']');
	}

	// A rich result: its texts as texts, anything else as its description, which shows
	// binary data only by its type
	// and size
	private void appendContents(StringBuilder line, ToolContents contents, int maxLength) {
		line.append('[');
		int count = 0;
		for (ToolContent part : contents.parts()) {
			if (count == MAX_ELEMENTS) {
				line.append(", ").append(ELLIPSIS).append("(+").append(contents.parts().size() - count).append(')');
				break;
			}
			if (count++ > 0) {
				line.append(", ");
			}
			if (part instanceof ToolContent.Text text) {
				appendText(line, text.text(), maxLength);
			}
			else {
				line.append(part.getClass().getSimpleName()).append(' ');
				appendText(line, part.describe(), maxLength);
			}
		}
		line.append(']');
	}

	private void appendArray(StringBuilder line, Object array, int maxLength, int depth) {
		int length = Array.getLength(array);
		line.append('[');
		for (int i = 0; i < length; i++) {
			if (i == MAX_ELEMENTS) {
				line.append(", ").append(ELLIPSIS).append("(+").append(length - i).append(')');
				break;
			}
			if (i > 0) {
				line.append(", ");
			}
			appendValue(line, Array.get(array, i), maxLength, depth + 1);
		}
		line.append(']');
	}

	private static String toString(Object value) {
		try {
			return String.valueOf(value);
		}
		catch (RuntimeException ex) {
			return value.getClass().getName() + "(toString failed: " + ex.getClass().getSimpleName() + ")";
		}
	}

	private static boolean isPlain(String token) {
		for (int i = 0; i < token.length(); i++) {
			char c = token.charAt(i);
			if (c <= ' ' || c == '"' || c == '=' || c == '\\' || c == 0x7f) {
				return false;
			}
		}
		return true;
	}

	private static void appendEscaped(StringBuilder line, String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> line.append("\\\"");
				case '\\' -> line.append("\\\\");
				case '\n' -> line.append("\\n");
				case '\r' -> line.append("\\r");
				case '\t' -> line.append("\\t");
				default -> {
					if (c < ' ') {
						line.append(' ');
					}
					else {
						line.append(c);
					}
				}
			}
		}
	}

}
