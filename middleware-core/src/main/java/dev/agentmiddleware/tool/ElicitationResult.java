package dev.agentmiddleware.tool;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The answer of a client's user to a tool's {@linkplain ToolClient#elicit elicitation}:
 * accepted, with the form's content, declined or cancelled (content empty). Its
 * {@link #toString()} never shows the content, which may be personal. <pre>{@code
 * ElicitationResult answer = client.elicit(request);
 * if (answer.isAccepted()) {
 *     String email = (String) answer.content().get("email");
 * }
 * }</pre>
 *
 * @param action what the user did
 * @param content the values the user gave, by property name; empty unless accepted;
 * unmodifiable
 */
public record ElicitationResult(Action action, Map<String, @Nullable Object> content) {

	/**
	 * Creates an answer.
	 * @param action what the user did
	 * @param content the values the user gave
	 */
	public ElicitationResult {
		Objects.requireNonNull(action, "action");
		content = Collections.unmodifiableMap(new LinkedHashMap<>(content));
	}

	/**
	 * Whether the user accepted, and gave the content.
	 * @return {@code true} for {@link Action#ACCEPT}
	 */
	public boolean isAccepted() {
		return this.action == Action.ACCEPT;
	}

	@Override
	public String toString() {
		return "ElicitationResult[action=" + this.action + ", content=" + this.content.keySet() + "]";
	}

	/**
	 * What the user did with an elicitation.
	 */
	public enum Action {

		/** Submitted the form. */
		ACCEPT,

		/** Refused to answer. */
		DECLINE,

		/** Dismissed the form without choosing. */
		CANCEL

	}

}
