package dev.agentmiddleware.sample.resilience;

import java.time.Duration;

import dev.agentmiddleware.sample.latency.SimulatedLatency;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolProgress;

import org.springframework.stereotype.Component;

/**
 * A slow report generator: it takes as many seconds as asked, and tells a caller that
 * asked for progress how far it is, in percent, once a second and when the report is
 * ready ({@code 100/100}; an MCP client that sent a {@code progressToken} gets at most
 * one notification per {@code agent.middleware.mcp.progress-interval}, and always the
 * last). The timeout middleware abandons a call that takes longer than the tool's
 * configured timeout and interrupts the work.
 */
@Component
public class ReportTools {

	/** The longest a report may be asked to take. */
	public static final int MAX_SECONDS = 30;

	private static final Duration STEP = Duration.ofSeconds(1);

	private final SimulatedLatency latency;

	/**
	 * Creates the tool.
	 * @param latency how the generation's seconds pass ({@link SimulatedLatency#REAL} in
	 * the application)
	 */
	public ReportTools(SimulatedLatency latency) {
		this.latency = latency;
	}

	@AgentTool(title = "Generate a report",
			description = "Generates a report on a topic; it takes the given number of seconds",
			safety = SafetyLevel.SAFE)
	public String generateReport(@AgentToolParam(description = "What the report is about") String topic,
			@AgentToolParam(description = "How long the generation takes, 0 to 30 seconds") int seconds,
			ToolProgress progress) throws InterruptedException {
		if (seconds < 0 || seconds > MAX_SECONDS) {
			throw new IllegalArgumentException("seconds must be between 0 and " + MAX_SECONDS + ", was " + seconds);
		}
		for (int done = 0; done < seconds; done++) {
			progress.report(done * 100.0 / seconds, 100.0,
					"generating the report on " + topic + ": " + done + " of " + seconds + " s");
			this.latency.pass(STEP);
		}
		progress.report(100, 100.0, "the report on " + topic + " is ready");
		return "Report on " + topic + ": all figures nominal";
	}

}
