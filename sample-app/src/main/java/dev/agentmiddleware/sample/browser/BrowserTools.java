package dev.agentmiddleware.sample.browser;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.springframework.stereotype.Component;

/**
 * Browser tools. {@code browse} is tagged {@code browser}, so the crash-recovery
 * middleware guards it: when the browser has crashed, the session is reset by
 * {@link BrowserSessionReset} and the call retried once. {@code crash_browser} kills the
 * browser on purpose, to show that.
 */
@Component
public class BrowserTools {

	private final BrowserSession session;

	public BrowserTools(BrowserSession session) {
		this.session = session;
	}

	@AgentTool(title = "Browse a web page",
			description = "Opens a web page in the (simulated) browser and returns its title",
			safety = SafetyLevel.SAFE, tags = "browser")
	public String browse(@AgentToolParam(description = "The page's URL") String url) {
		return this.session.render(url);
	}

	@AgentTool(title = "Crash the browser", description = "Crashes the browser process, to demonstrate crash recovery",
			safety = SafetyLevel.MODERATE)
	public String crashBrowser() {
		this.session.crash();
		return "The browser process crashed; the next browse call recovers it";
	}

}
