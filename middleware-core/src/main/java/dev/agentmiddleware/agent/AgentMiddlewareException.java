package dev.agentmiddleware.agent;

/**
 * An agent middleware's hook failed, which fails the iteration. The message names the
 * middleware and the hook.
 */
public class AgentMiddlewareException extends RuntimeException {

	private final String middleware;

	/**
	 * Creates the exception.
	 * @param middleware the name of the middleware whose hook failed
	 * @param hook the hook, {@code beforeIteration} or {@code afterIteration}
	 * @param iteration the iteration number
	 * @param cause the hook's exception
	 */
	public AgentMiddlewareException(String middleware, String hook, int iteration, Throwable cause) {
		super("Agent middleware '" + middleware + "' failed in " + hook + " of iteration " + iteration + ": "
				+ cause.getClass().getSimpleName() + ((cause.getMessage() != null) ? ": " + cause.getMessage() : ""),
				cause);
		this.middleware = middleware;
	}

	/**
	 * The middleware whose hook failed.
	 * @return its name
	 */
	public String middleware() {
		return this.middleware;
	}

}
