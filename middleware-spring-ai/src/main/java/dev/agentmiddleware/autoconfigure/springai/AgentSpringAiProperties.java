package dev.agentmiddleware.autoconfigure.springai;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the Spring AI integration of agent-level middleware, under
 * {@code agent.middleware.spring-ai}.
 */
@ConfigurationProperties(AgentSpringAiProperties.PREFIX)
class AgentSpringAiProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "agent.middleware.spring-ai";

	private final ChatClient chatClient = new ChatClient();

	private final ToolCallingManager toolCallingManager = new ToolCallingManager();

	public ChatClient getChatClient() {
		return this.chatClient;
	}

	public ToolCallingManager getToolCallingManager() {
		return this.toolCallingManager;
	}

	/**
	 * Settings of the auto-configured {@code ChatClient.Builder}.
	 */
	public static class ChatClient {

		/**
		 * Whether the auto-configured ChatClient.Builder gets every agent tool and the
		 * agent tool-calling advisor.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Settings of the {@code ToolCallingManager} decorator.
	 */
	public static class ToolCallingManager {

		/**
		 * Whether tools registered the Spring AI way (@Tool beans, other ToolCallbacks)
		 * pass the middleware chain, and a chat model is offered only the tools its
		 * caller may call.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
