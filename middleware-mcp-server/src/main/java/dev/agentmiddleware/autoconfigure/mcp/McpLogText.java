package dev.agentmiddleware.autoconfigure.mcp;

import org.jspecify.annotations.Nullable;

/**
 * A text a client sent, made fit for one of our log lines: one printable, quoted line of
 * at most 64 characters. Control, format and line-separator characters are written as a
 * backslash, {@code u} and four hex digits, so that a newline or an escape sequence
 * cannot start a forged line or recolour a terminal. Client texts reach our logs only
 * through it. <pre>{@code
 * McpLogText.of("evil\nINFO approved by admin");   // one line: the newline written as an escape
 * }</pre>
 */
final class McpLogText {

	private static final int MAX_LENGTH = 64;

	private McpLogText() {
	}

	/**
	 * The text as one printable line of at most 64 characters, quoted to show where it
	 * starts and ends.
	 * @param text what the client sent, or {@code null}
	 * @return the line, {@code (none)} for {@code null}
	 */
	static String of(@Nullable String text) {
		if (text == null) {
			return "(none)";
		}
		StringBuilder line = new StringBuilder(Math.min(text.length(), MAX_LENGTH) + 2).append('\'');
		int written = 0;
		for (int i = 0; i < text.length() && written < MAX_LENGTH; i++, written++) {
			char c = text.charAt(i);
			if (isUnsafe(c)) {
				line.append(String.format("\\u%04x", (int) c));
			}
			else {
				line.append(c);
			}
		}
		line.append('\'');
		if (text.length() > MAX_LENGTH) {
			line.append("... (").append(text.length()).append(" characters)");
		}
		return line.toString();
	}

	private static boolean isUnsafe(char c) {
		int type = Character.getType(c);
		return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
				|| type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
	}

}
