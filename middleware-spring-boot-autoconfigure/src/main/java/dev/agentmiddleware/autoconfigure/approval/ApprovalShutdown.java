package dev.agentmiddleware.autoconfigure.approval;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Ends the waits of calls still waiting for a person when the application stops, each as
 * a denial (abandoned), so that no call holds the shutdown up: it stops before the web
 * server's graceful shutdown, which would otherwise wait for those requests until its own
 * timeout.
 */
final class ApprovalShutdown implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(ApprovalShutdown.class);

	private final ApprovalMiddleware approvalMiddleware;

	private volatile boolean running;

	ApprovalShutdown(ApprovalMiddleware approvalMiddleware) {
		this.approvalMiddleware = approvalMiddleware;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		int ended = this.approvalMiddleware.abandonWaiting("the application shut down");
		if (ended > 0) {
			logger.info("Denied {} tool call(s) still waiting for approval because the application is stopping", ended);
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		// Stops first (highest phase): before the web server's graceful shutdown waits
		// for in-flight requests.
		return Integer.MAX_VALUE;
	}

}
