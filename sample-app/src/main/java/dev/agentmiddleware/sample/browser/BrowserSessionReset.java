package dev.agentmiddleware.sample.browser;

import dev.agentmiddleware.recovery.ToolSessionReset;
import dev.agentmiddleware.tool.ToolInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * Resets the browser after a crash: the crash-recovery middleware calls it, then retries
 * the call once.
 */
@Component
class BrowserSessionReset implements ToolSessionReset {

	private static final Logger logger = LoggerFactory.getLogger(BrowserSessionReset.class);

	private final BrowserSession session;

	BrowserSessionReset(BrowserSession session) {
		this.session = session;
	}

	@Override
	public void reset(ToolInvocation invocation, Throwable crash) {
		logger.info("Restarting the browser after a crash in tool {}", invocation.toolName());
		this.session.restart();
	}

}
