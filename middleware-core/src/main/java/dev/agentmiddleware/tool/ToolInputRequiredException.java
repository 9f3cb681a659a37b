package dev.agentmiddleware.tool;

/**
 * Thrown by a {@link ToolClient} request whose answer is not there yet, on a protocol
 * where a call cannot wait for its client: on MCP revision {@code 2026-07-28} a call's
 * request to its client (an elicitation, a sampling request, the roots) is answered
 * {@code input_required} with what the tool asked, and the client retries the call with
 * the answers. The retry runs the call again from the start, and each request of the tool
 * now finds its answer. A tool does not catch it (catching it ends the call without the
 * answer); the exception unwinds the call to the layer that answers
 * {@code input_required}.
 *
 * <p>
 * It is an outcome of its own ({@link CallOutcome#INPUT_REQUIRED}), neither a success nor
 * a failure: the chain does not retry it, does not cache it, does not count it as an
 * error (learning, crash recovery), does not wrap it (timeout), and reports the call with
 * the outcome {@code input_required} (log, metrics, observation, audit).
 *
 * <p>
 * Since the call runs again with the answers, a tool that asks its client should do its
 * side effects after asking: <pre>{@code
 * ElicitationResult answer = client.elicit(request);   // the first run ends here
 * bookings.book(restaurant, answer.content());          // only the retry gets here
 * }</pre> A tool that asks independent questions may ask them in one round: it catches
 * this exception around each request, goes on to the next, and throws one of them once it
 * asked them all (each request is noted when it is made): <pre>{@code
 * ToolInputRequiredException missing = null;
 * try {
 *     name = client.elicit(askName).content().get("name");
 * }
 * catch (ToolInputRequiredException ex) {
 *     missing = ex;
 * }
 * try {
 *     roots = client.roots();
 * }
 * catch (ToolInputRequiredException ex) {
 *     missing = ex;
 * }
 * if (missing != null) {
 *     throw missing;
 * }
 * }</pre>
 */
public class ToolInputRequiredException extends ToolMiddlewareException {

	private final String request;

	/**
	 * Creates the exception.
	 * @param toolName the tool, prompt or resource whose request needs input
	 * @param request the kind of request asked: {@code elicitation}, {@code sampling} or
	 * {@code roots}
	 */
	public ToolInputRequiredException(String toolName, String request) {
		super(toolName, null,
				"Tool '" + toolName + "' asked its client for " + request
						+ ": the call answers input_required, and runs again when the client retries with the answer",
				null, false);
		this.request = request;
	}

	/**
	 * The kind of request whose answer is missing.
	 * @return {@code elicitation}, {@code sampling} or {@code roots}
	 */
	public String request() {
		return this.request;
	}

	@Override
	public CallOutcome outcome() {
		return CallOutcome.INPUT_REQUIRED;
	}

}
