package dev.agentmiddleware.tool;

import java.util.List;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ToolClient} of a call without an MCP client: logs to the application log,
 * elicits and samples nothing.
 */
final class ApplicationLogToolClient implements ToolClient {

	private static final Logger logger = LoggerFactory.getLogger(ToolClient.class);

	private final String toolName;

	ApplicationLogToolClient(String toolName) {
		this.toolName = Objects.requireNonNull(toolName, "toolName");
	}

	@Override
	public void log(Level level, String message) {
		switch (level) {
			case DEBUG -> logger.debug("{}: {}", this.toolName, message);
			case INFO, NOTICE -> logger.info("{}: {}", this.toolName, message);
			case WARNING -> logger.warn("{}: {}", this.toolName, message);
			default -> logger.error("{}: {}", this.toolName, message);
		}
	}

	@Override
	public boolean canElicit() {
		return false;
	}

	@Override
	public ElicitationResult elicit(ElicitationRequest request) {
		throw new ToolClientUnavailableException(this.toolName, "elicitation",
				"the call has no MCP client to ask its user (a Java or ChatClient call)");
	}

	@Override
	public boolean canSample() {
		return false;
	}

	@Override
	public SamplingResult sample(SamplingRequest request) {
		throw new ToolClientUnavailableException(this.toolName, "sampling",
				"the call has no MCP client whose model to ask (a Java or ChatClient call)");
	}

	@Override
	public List<Root> roots() {
		throw new ToolClientUnavailableException(this.toolName, "roots",
				"the call has no MCP client whose roots to ask (a Java or ChatClient call)");
	}

	@Override
	public String toString() {
		return "ToolClient.applicationLog[" + this.toolName + "]";
	}

}
