package dev.agentmiddleware.redaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Finds the secrets of common credential files where their content appears in text:
 * {@code .netrc} entries, {@code .pgpass} lines, CSV exports with a secret-named column
 * (AWS {@code credentials.csv}, browser password exports) and the private lines of PuTTY
 * keys. Each returns one {@link Redaction} covering the file's secrets (the structure
 * between them kept), or {@code null} when what looked like the file holds none. Every
 * scan moves forward only, so the cost stays linear in the text.
 */
final class CredentialFiles {

	/**
	 * The {@code .netrc} keywords followed by a value, and those whose value is a secret.
	 */
	private static final Set<String> NETRC_KEYWORDS = Set.of("machine", "login", "password", "account", "port");

	private static final Set<String> NETRC_SECRETS = Set.of("password", "account");

	private static final int MAX_CSV_COLUMNS = 64;

	private static final Pattern ISO_DATE_HOUR = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}");

	private CredentialFiles() {
	}

	/**
	 * The values of {@code password} and {@code account} in the {@code .netrc} entries
	 * from {@code start} (a {@code machine} or {@code default} keyword), as far as the
	 * text keeps to the {@code .netrc} grammar.
	 */
	static @Nullable Redaction netrc(String text, int start) {
		List<int[]> secrets = new ArrayList<>();
		int i = start;
		while (true) {
			int keywordStart = skipWhitespace(text, i);
			int keywordEnd = tokenEnd(text, keywordStart);
			String keyword = text.substring(keywordStart, keywordEnd);
			if (keyword.equals("default")) {
				i = keywordEnd;
				continue;
			}
			if (!NETRC_KEYWORDS.contains(keyword)) {
				break;
			}
			int valueStart = skipWhitespace(text, keywordEnd);
			if (valueStart == keywordEnd || valueStart >= text.length()) {
				break;
			}
			int valueEnd;
			if (text.charAt(valueStart) == '"') {
				int close = ValueSpans.closingQuote(text, valueStart + 1, '"');
				if (NETRC_SECRETS.contains(keyword) && close > valueStart + 1) {
					secrets.add(new int[] { valueStart + 1, close });
				}
				valueEnd = Math.min(close + 1, text.length());
			}
			else {
				valueEnd = tokenEnd(text, valueStart);
				if (NETRC_SECRETS.contains(keyword)) {
					secrets.add(new int[] { valueStart, valueEnd });
				}
			}
			i = valueEnd;
		}
		return replaced(text, secrets);
	}

	/**
	 * The password of a {@code .pgpass} line {@code host:port:database:user:password},
	 * given the colon ending its host and the start of its password: to the end of the
	 * line, or to the closing quote when the line is quoted.
	 */
	static @Nullable Redaction pgpass(String text, int hostEnd, int passwordStart) {
		int start = hostEnd;
		while (start > 0 && hostEnd - start < 255 && isPgpassHostChar(text.charAt(start - 1))) {
			start--;
		}
		char before = (start > 0) ? text.charAt(start - 1) : ' ';
		if (start == hostEnd || !(Character.isWhitespace(before) || before == '"' || before == '\'')) {
			// not the first field of a line, or no host at all
			return null;
		}
		String host = text.substring(start, hostEnd);
		if (!host.equals("*") && !containsLetterOrDot(host) || ISO_DATE_HOUR.matcher(host).matches()) {
			// 01:02:03:04:05 is a time code and 2025-04-12T08:01:02.345+02:00 a time, not
			// a host
			return null;
		}
		if (passwordStart >= text.length() || Character.isWhitespace(text.charAt(passwordStart))) {
			return null;
		}
		for (int i = passwordStart; i < text.length() && !Character.isWhitespace(text.charAt(i)); i++) {
			if (text.charAt(i) == '\\') {
				i++;
			}
			else if (text.charAt(i) == ':') {
				// a sixth field: an IPv6 address, not a .pgpass line (whose colons are
				// escaped)
				return null;
			}
		}
		int end;
		if (before == '"' || before == '\'') {
			end = Math.min(ValueSpans.closingQuote(text, passwordStart, before), lineEnd(text, passwordStart));
		}
		else {
			end = lineEnd(text, passwordStart);
			while (end > passwordStart && (text.charAt(end - 1) == ' ' || text.charAt(end - 1) == '\t')) {
				end--;
			}
		}
		return (end > passwordStart) ? new Redaction(passwordStart, end, SecretRedactor.REDACTED) : null;
	}

	/**
	 * The secret columns of the CSV data lines after the header line
	 * {@code [headerStart, dataStart)}, while the lines have as many fields as the
	 * header; the other fields are redacted as text.
	 */
	static @Nullable Redaction csv(SecretRedactor redactor, String text, int headerStart, int dataStart) {
		int headerEnd = dataStart - 1;
		if (headerEnd > headerStart && text.charAt(headerEnd - 1) == '\r') {
			headerEnd--;
		}
		List<int[]> header = csvFields(text, headerStart, headerEnd);
		if (header == null) {
			return null;
		}
		boolean[] secret = new boolean[header.size()];
		boolean any = false;
		for (int column = 0; column < header.size(); column++) {
			int[] field = unquoted(text, header.get(column));
			secret[column] = redactor.isSecretKey(text.substring(field[0], field[1]));
			any |= secret[column];
		}
		if (!any) {
			return null;
		}
		StringBuilder replacement = new StringBuilder();
		boolean changed = false;
		int lineStart = dataStart;
		int copied = dataStart;
		while (lineStart < text.length()) {
			int lineEnd = lineEnd(text, lineStart);
			List<int[]> fields = csvFields(text, lineStart, lineEnd);
			if (fields == null || fields.size() != header.size()) {
				break;
			}
			for (int column = 0; column < fields.size(); column++) {
				int[] field = unquoted(text, fields.get(column));
				replacement.append(text, copied, field[0]);
				String value = text.substring(field[0], field[1]);
				String shown = (!secret[column]) ? redactor.redactText(value)
						: value.isEmpty() ? value : SecretRedactor.REDACTED;
				changed |= !shown.equals(value);
				replacement.append(shown);
				copied = field[1];
			}
			int next = lineEnd;
			if (next < text.length() && text.charAt(next) == '\r') {
				next++;
			}
			if (next < text.length() && text.charAt(next) == '\n') {
				next++;
			}
			if (next == lineEnd) {
				break;
			}
			lineStart = next;
		}
		return changed ? new Redaction(dataStart, copied, replacement.toString()) : null;
	}

	/**
	 * The lines of a PuTTY key's private part, {@code lines} of them from {@code start}.
	 */
	static @Nullable Redaction puttyPrivateLines(String text, int start, int lines) {
		int end = start;
		for (int line = 0; line < lines && end < text.length(); line++) {
			int lineEnd = text.indexOf('\n', end);
			end = (line < lines - 1 && lineEnd >= 0) ? lineEnd + 1 : (lineEnd >= 0) ? lineEnd : text.length();
		}
		if (end > start && text.charAt(end - 1) == '\r') {
			end--;
		}
		return (end > start) ? new Redaction(start, end, SecretRedactor.REDACTED) : null;
	}

	/**
	 * The fields of one CSV line as {start, end} pairs (quotes included), or {@code null}
	 * if it is not CSV.
	 */
	private static @Nullable List<int[]> csvFields(String text, int start, int end) {
		List<int[]> fields = new ArrayList<>();
		int i = start;
		while (fields.size() < MAX_CSV_COLUMNS) {
			int fieldStart = i;
			if (i < end && text.charAt(i) == '"') {
				i = closingCsvQuote(text, i + 1, end);
				if (i >= end) {
					return null;
				}
				i++;
			}
			else {
				while (i < end && text.charAt(i) != ',' && text.charAt(i) != '"') {
					i++;
				}
			}
			fields.add(new int[] { fieldStart, i });
			if (i == end) {
				return (fields.size() > 1) ? fields : null;
			}
			if (text.charAt(i) != ',') {
				return null;
			}
			i++;
		}
		return null;
	}

	/**
	 * The quote closing a quoted CSV field, where {@code ""} stands for one quote;
	 * {@code end} if none.
	 */
	private static int closingCsvQuote(String text, int from, int end) {
		int i = from;
		while (i < end) {
			if (text.charAt(i) == '"') {
				if (i + 1 < end && text.charAt(i + 1) == '"') {
					i += 2;
					continue;
				}
				return i;
			}
			i++;
		}
		return end;
	}

	private static int[] unquoted(String text, int[] field) {
		if (field[1] - field[0] >= 2 && text.charAt(field[0]) == '"') {
			return new int[] { field[0] + 1, field[1] - 1 };
		}
		return field;
	}

	private static @Nullable Redaction replaced(String text, List<int[]> secrets) {
		if (secrets.isEmpty()) {
			return null;
		}
		int start = secrets.get(0)[0];
		StringBuilder replacement = new StringBuilder();
		int copied = start;
		for (int[] secret : secrets) {
			replacement.append(text, copied, secret[0]).append(SecretRedactor.REDACTED);
			copied = secret[1];
		}
		return new Redaction(start, copied, replacement.toString());
	}

	private static int skipWhitespace(String text, int from) {
		int i = from;
		while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
			i++;
		}
		return i;
	}

	private static int tokenEnd(String text, int from) {
		int i = from;
		while (i < text.length() && !Character.isWhitespace(text.charAt(i))) {
			i++;
		}
		return i;
	}

	private static int lineEnd(String text, int from) {
		int i = from;
		while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
			i++;
		}
		return i;
	}

	private static boolean isPgpassHostChar(char c) {
		return !Character.isWhitespace(c) && "\\:\"'=,;<>(){}[]".indexOf(c) < 0;
	}

	private static boolean containsLetterOrDot(String host) {
		for (int i = 0; i < host.length(); i++) {
			if (Character.isLetter(host.charAt(i)) || host.charAt(i) == '.') {
				return true;
			}
		}
		return false;
	}

}
