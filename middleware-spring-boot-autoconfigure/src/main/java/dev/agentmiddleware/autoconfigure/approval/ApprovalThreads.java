package dev.agentmiddleware.autoconfigure.approval;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon threads that ask approval providers which block (a callback, an MCP
 * elicitation), so that a waiting call never waits past its timeout. Deliberately not an
 * {@code Executor} bean: one would make Spring Boot's own {@code applicationTaskExecutor}
 * back off.
 */
public final class ApprovalThreads implements AutoCloseable {

	private final ExecutorService executor;

	ApprovalThreads() {
		AtomicInteger threads = new AtomicInteger();
		this.executor = Executors.newCachedThreadPool((task) -> {
			Thread thread = new Thread(task, "agent-approval-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
	}

	public ExecutorService executor() {
		return this.executor;
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
