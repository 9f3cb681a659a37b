package dev.agentmiddleware.results;

/**
 * What happens to a result longer than its tool's {@link ResultPolicy#maxChars() limit}.
 */
public enum OnExceed {

	/** The result is cut to the limit, with a marker saying how much was left out. */
	TRUNCATE,

	/** The call fails with a {@link ToolResultRefusedException}; the model sees the refusal, not the result. */
	REFUSE

}
