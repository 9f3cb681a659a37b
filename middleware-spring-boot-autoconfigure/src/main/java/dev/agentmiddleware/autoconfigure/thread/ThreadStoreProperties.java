package dev.agentmiddleware.autoconfigure.thread;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the thread store, under {@code agent.middleware.threads}.
 */
@ConfigurationProperties(ThreadStoreProperties.PREFIX)
public class ThreadStoreProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "agent.middleware.threads";

	private final Jdbc jdbc = new Jdbc();

	/**
	 * The JDBC store.
	 * @return its settings
	 */
	public Jdbc getJdbc() {
		return this.jdbc;
	}

	/**
	 * Settings of the JDBC thread store.
	 */
	public static class Jdbc {

		/** Whether to store threads in the application's DataSource when there is one. */
		private boolean enabled = true;

		/** Whether to create the agent_thread_metadata table on startup when it does not exist. */
		private boolean initializeSchema = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(boolean initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

}
