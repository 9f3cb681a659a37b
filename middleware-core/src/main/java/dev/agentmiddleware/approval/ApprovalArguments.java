package dev.agentmiddleware.approval;

import java.util.Map;
import java.util.Objects;

import dev.agentmiddleware.cache.ArgumentsFingerprint;
import dev.agentmiddleware.redaction.SecretRedactor;
import org.jspecify.annotations.Nullable;

/**
 * What an approval shows of a call's arguments and what it binds a decision to: the
 * arguments as JSON with secret values hidden (by the {@link SecretRedactor}: values
 * under secret keys, and bearer tokens or {@code key=value} secrets inside strings), and
 * the SHA-256 of their {@link ArgumentsFingerprint} (the canonical JSON: object keys
 * sorted at every depth, no whitespace), so that two calls with the same arguments in any
 * key order have the same hash. Thread-safe. <pre>{@code
 * ApprovalArguments arguments = new ApprovalArguments(SecretRedactor.withDefaults());
 * arguments.redactedJson(Map.of("path", "a.txt", "token", "s3cr3t")); // {"path":"a.txt","token":"[REDACTED]"}
 * }</pre>
 */
final class ApprovalArguments {

	private static final int MAX_TEXT_LENGTH = 200;

	private final SecretRedactor redactor;

	/**
	 * Creates the arguments view.
	 * @param redactor hides secrets
	 */
	ApprovalArguments(SecretRedactor redactor) {
		this.redactor = Objects.requireNonNull(redactor, "redactor");
	}

	/**
	 * The hash a decision is bound to: the {@link ArgumentsFingerprint#sha256() SHA-256}
	 * of the arguments' canonical JSON, the same value on every instance (the JDBC store
	 * compares it across them).
	 * @param arguments the bound arguments
	 * @return the SHA-256 of their canonical JSON, in lower-case hex
	 */
	String hash(Map<String, ? extends @Nullable Object> arguments) {
		return ArgumentsFingerprint.of(arguments).sha256();
	}

	/**
	 * The arguments as canonical JSON with secrets hidden, fit to show to a person.
	 * @param arguments the bound arguments
	 * @return the redacted JSON text
	 */
	String redactedJson(Map<String, ? extends @Nullable Object> arguments) {
		return this.redactor.redactedJson(arguments);
	}

	/**
	 * The one-line summary of a call that approvers see: the tool's name and its redacted
	 * arguments, cut to {@value #MAX_TEXT_LENGTH} characters.
	 */
	String summary(String toolName, String redactedJson) {
		return cut(toolName + " " + redactedJson);
	}

	/**
	 * A reason as approvals show and keep it: its first line, redacted, cut to
	 * {@value #MAX_TEXT_LENGTH} characters; {@code null} for no reason or a blank one.
	 */
	@Nullable String reason(@Nullable String text) {
		if (text == null || text.isBlank()) {
			return null;
		}
		String line = text.strip();
		int end = line.indexOf('\n');
		if (end >= 0) {
			line = line.substring(0, end).strip();
		}
		return cut(this.redactor.redactText(line));
	}

	private static String cut(String text) {
		return (text.length() <= MAX_TEXT_LENGTH) ? text : text.substring(0, MAX_TEXT_LENGTH - 1) + "…";
	}

}
