package dev.agentmiddleware.autoconfigure.thread;

import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreSettings;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration of the thread store, under {@code agent.middleware.threads}.
 */
@ConfigurationProperties(ThreadStoreProperties.PREFIX)
public class ThreadStoreProperties implements ValidatedProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "agent.middleware.threads";

	@NestedConfigurationProperty
	private final StoreSettings store = new StoreSettings();

	private final Jdbc jdbc = new Jdbc();

	private final Memory memory = new Memory();

	/**
	 * The in-memory store, used when no JDBC store is.
	 * @return its settings
	 */
	@Override
	public void validate(PropertyChecks checks) {
		this.store.getType().requireMemoryOrJdbc(checks.property("store.type"));
		checks.atLeast("memory.maxThreads", this.memory.getMaxThreads(), 1);
	}

	public Memory getMemory() {
		return this.memory;
	}

	/**
	 * Which store keeps the threads.
	 * @return its settings
	 */
	public StoreSettings getStore() {
		return this.store;
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

		/**
		 * Whether to create the agent_thread_metadata table on startup when it does not
		 * exist.
		 */
		private boolean initializeSchema = true;

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
		 * How many threads the in-memory store keeps at most; beyond it the thread used
		 * least recently is forgotten.
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
