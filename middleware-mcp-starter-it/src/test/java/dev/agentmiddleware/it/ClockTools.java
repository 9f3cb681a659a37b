package dev.agentmiddleware.it;

import java.time.ZoneId;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/**
 * A tool written for Spring AI ({@code @Tool}), published on the MCP server through a
 * {@code MethodToolCallbackProvider}.
 */
public class ClockTools {

	@Tool(description = "The time zone's current offset from UTC")
	public String utcOffset(@ToolParam(description = "Time zone id, for example Europe/Lisbon") String zone) {
		return ZoneId.of(zone).getRules().getOffset(java.time.Instant.EPOCH).getId();
	}

}
