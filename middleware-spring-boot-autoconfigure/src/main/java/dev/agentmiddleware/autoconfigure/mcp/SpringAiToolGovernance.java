package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.spring.tool.AgentToolRegistry;

import org.springframework.ai.tool.ToolCallback;

/**
 * TEMPORARY until GovernedToolCallback lands.
 */
final class SpringAiToolGovernance {

	private SpringAiToolGovernance() {
	}

	static ToolCallback govern(AgentToolRegistry registry, ToolCallback callback) {
		return callback;
	}

}
