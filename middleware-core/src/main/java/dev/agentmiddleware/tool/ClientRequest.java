package dev.agentmiddleware.tool;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CancellationException;

/**
 * One request a tool made to its {@link ToolClient} during a call, as the call's record
 * and its audit record keep it: the kind of request, how it ended and how long it took,
 * never what was asked or answered. A call's requests are in the order they were made:
 * <pre>{@code
 * AuditRecord record = store.find(AuditQuery.all().withTool("book_table")).get(0);
 * record.clientRequests();   // [ClientRequest[kind=ELICITATION, outcome=ACCEPT, duration=PT5.230114S]]
 * }</pre>
 *
 * @param kind the kind of request
 * @param outcome how it ended
 * @param duration how long the tool waited for it
 */
public record ClientRequest(Kind kind, Outcome outcome, Duration duration) {

	/**
	 * Validates the request.
	 */
	public ClientRequest {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(outcome, "outcome");
		Objects.requireNonNull(duration, "duration");
	}

	/**
	 * The kind of a request to the client.
	 */
	public enum Kind {

		/** The tool asked the client's user ({@link ToolClient#elicit}). */
		ELICITATION,

		/** The tool asked the client's model ({@link ToolClient#sample}). */
		SAMPLING,

		/** The tool asked the client's roots ({@link ToolClient#roots}). */
		ROOTS;

		/**
		 * The metric and log tag of this kind, such as {@code elicitation}.
		 * @return the lower-case name
		 */
		public String tagValue() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * How a request to the client ended.
	 */
	public enum Outcome {

		/** The user accepted an elicitation and gave the form's content. */
		ACCEPT,

		/** The user declined an elicitation. */
		DECLINE,

		/** The user dismissed an elicitation without choosing. */
		CANCEL,

		/** The client's model answered a sampling request. */
		ANSWERED,

		/**
		 * The client could not serve the request
		 * ({@link ToolClientUnavailableException}): it lacks the capability, or the call
		 * has no MCP client.
		 */
		UNAVAILABLE,

		/** The call was cancelled while the tool waited for the answer. */
		CANCELLED,

		/**
		 * The answer is not there yet ({@link ToolInputRequiredException}): the call
		 * answers {@code input_required} with the request, and runs again with the
		 * client's answer.
		 */
		INPUT_REQUIRED,

		/** The request failed otherwise (the client answered with an error). */
		FAILED;

		/**
		 * The outcome of an answered elicitation.
		 * @param action what the user did
		 * @return {@link #ACCEPT}, {@link #DECLINE} or {@link #CANCEL}
		 */
		public static Outcome of(ElicitationResult.Action action) {
			return switch (action) {
				case ACCEPT -> ACCEPT;
				case DECLINE -> DECLINE;
				case CANCEL -> CANCEL;
			};
		}

		/**
		 * The outcome of a request that threw.
		 * @param error what the request threw
		 * @return {@link #UNAVAILABLE} for a {@link ToolClientUnavailableException},
		 * {@link #CANCELLED} for a {@link CancellationException}, {@link #INPUT_REQUIRED}
		 * for a {@link ToolInputRequiredException}, {@link #FAILED} otherwise
		 */
		public static Outcome ofFailure(Throwable error) {
			if (error instanceof ToolClientUnavailableException) {
				return UNAVAILABLE;
			}
			if (error instanceof ToolInputRequiredException) {
				return INPUT_REQUIRED;
			}
			return (error instanceof CancellationException) ? CANCELLED : FAILED;
		}

		/**
		 * The metric and log tag of this outcome, such as {@code unavailable}.
		 * @return the lower-case name
		 */
		public String tagValue() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
