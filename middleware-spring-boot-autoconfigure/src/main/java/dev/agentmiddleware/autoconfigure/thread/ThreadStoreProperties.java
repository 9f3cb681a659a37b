package dev.agentmiddleware.autoconfigure.thread;

import dev.agentmiddleware.spring.tool.ValidatedProperties;
import dev.agentmiddleware.spring.tool.PropertyChecks;
import dev.agentmiddleware.thread.InMemoryThreadStore;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the thread store, under {@code agent.middleware.threads}.
 */
@ConfigurationProperties(ThreadStoreProperties.PREFIX)
public class ThreadStoreProperties implements ValidatedProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "agent.middleware.threads";

	private final Jdbc jdbc = new Jdbc();

	private final Memory memory = new Memory();

	/**
	 * The in-memory store, used when no JDBC store is.
	 * @return its settings
	 */
	@Override
	public void validate(PropertyChecks checks) {
		checks.atLeast("memory.maxThreads", this.memory.getMaxThreads(), 1);
	}

	public Memory getMemory() {
		return this.memory;
	}

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

	/**
	 * Settings of the in-memory thread store.
	 */
	public static class Memory {

		/**
		 * How many threads the in-memory store keeps at most; beyond it the thread used least recently is forgotten.
		 */
		private int maxThreads = InMemoryThreadStore.DEFAULT_MAX_THREADS;

		public int getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(int maxThreads) {
			this.maxThreads = maxThreads;
		}

	}

}
