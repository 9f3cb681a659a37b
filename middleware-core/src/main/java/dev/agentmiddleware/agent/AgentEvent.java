package dev.agentmiddleware.agent;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Something that happened during an iteration, in order: a tool answered, a tool failed, a loop guard answered a
 * call instead of the tool, or the iteration itself failed.
 * <pre>{@code
 * AgentEvent failed = AgentEvent.toolError("call-1", "read_file", "File not found", exception);
 * }</pre>
 *
 * @param kind what happened
 * @param toolName the tool concerned, or {@code null} for an iteration failure
 * @param callId the id of the tool call, or {@code null}
 * @param text the text the model reads (the tool's result, the error text or the guard's answer)
 * @param error the exception behind an error, or {@code null} when only its text is known
 */
public record AgentEvent(Kind kind, @Nullable String toolName, @Nullable String callId, String text,
		@Nullable Throwable error) {

	/**
	 * Validates the components.
	 */
	public AgentEvent {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(text, "text");
	}

	/**
	 * A tool answered.
	 * @param callId the call id
	 * @param toolName the tool
	 * @param text the result as the model reads it
	 * @return the event
	 */
	public static AgentEvent toolResult(String callId, String toolName, String text) {
		return new AgentEvent(Kind.TOOL_RESULT, toolName, callId, text, null);
	}

	/**
	 * A tool failed.
	 * @param callId the call id
	 * @param toolName the tool
	 * @param text the error as the model reads it
	 * @param error the exception, or {@code null} when only the text is known
	 * @return the event
	 */
	public static AgentEvent toolError(String callId, String toolName, String text, @Nullable Throwable error) {
		return new AgentEvent(Kind.TOOL_ERROR, toolName, callId, text, error);
	}

	/**
	 * A loop guard answered a call instead of running the tool.
	 * @param callId the call id
	 * @param toolName the tool
	 * @param text the guard's answer
	 * @return the event
	 */
	public static AgentEvent guarded(String callId, String toolName, String text) {
		return new AgentEvent(Kind.GUARDED, toolName, callId, text, null);
	}

	/**
	 * The iteration failed, for example the model call.
	 * @param error the exception
	 * @return the event
	 */
	public static AgentEvent failure(Throwable error) {
		return new AgentEvent(Kind.FAILURE, null, null, String.valueOf(error.getMessage()), error);
	}

	/**
	 * Whether this event is an error: a failed tool or a failed iteration.
	 * @return {@code true} for {@link Kind#TOOL_ERROR} and {@link Kind#FAILURE}
	 */
	public boolean isError() {
		return this.kind == Kind.TOOL_ERROR || this.kind == Kind.FAILURE;
	}

	/**
	 * What happened.
	 */
	public enum Kind {

		/** A tool answered. */
		TOOL_RESULT,

		/** A tool failed; the model read an error text. */
		TOOL_ERROR,

		/** A loop guard answered the call; the tool did not run. */
		GUARDED,

		/** The iteration itself failed. */
		FAILURE

	}

}
