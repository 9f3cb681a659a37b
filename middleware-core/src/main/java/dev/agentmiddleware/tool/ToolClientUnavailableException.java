package dev.agentmiddleware.tool;

/**
 * Thrown by a {@link ToolClient} request that the call's client cannot serve: it did not
 * declare the capability the request needs, or the call has no MCP client at all (a
 * direct Java call, a Spring AI {@code ChatClient}). The message names the tool, the
 * request and what the client lacks; a tool catches it to go on without the answer:
 * <pre>{@code
 * try {
 *     summary = client.sample(SamplingRequest.of("Summarise: " + text, 200)).text();
 * }
 * catch (ToolClientUnavailableException ex) {
 *     summary = text.substring(0, 200);
 * }
 * }</pre> Not caught, it fails the call like any other exception of the tool.
 */
public class ToolClientUnavailableException extends RuntimeException {

	private final String request;

	/**
	 * Creates the exception.
	 * @param toolName the tool that made the request
	 * @param request the kind of request: {@code elicitation} or {@code sampling}
	 * @param lack what the client lacks, for a person
	 */
	public ToolClientUnavailableException(String toolName, String request, String lack) {
		super("Tool '" + toolName + "' cannot ask its client for " + request + ": " + lack);
		this.request = request;
	}

	/**
	 * The kind of request that could not be served.
	 * @return {@code elicitation} or {@code sampling}
	 */
	public String request() {
		return this.request;
	}

}
