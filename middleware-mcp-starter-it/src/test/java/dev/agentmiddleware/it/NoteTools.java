package dev.agentmiddleware.it;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolIcon;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.springframework.stereotype.Component;

/**
 * Tools of the fresh application, one of each kind an MCP client must tell apart.
 */
@Component
public class NoteTools {

	private final Map<String, String> notes = new ConcurrentHashMap<>(Map.of("todo", "buy milk"));

	@AgentTool(title = "Weather forecast", description = "Forecast for a city", safety = SafetyLevel.SAFE,
			readOnly = true, icons = @AgentToolIcon(src = "https://icons.example/forecast.svg", sizes = "any"))
	public Forecast forecast(@AgentToolParam(description = "City name") String city,
			@AgentToolParam(description = "Days ahead, 1 to 7") int days) {
		return new Forecast(city, days, 21.5, (days > 3) ? null : "sunny");
	}

	@AgentTool(title = "Euros to dollars", description = "Converts an amount of euros to US dollars",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String convert(@AgentToolParam(description = "Amount in euros") double amount) {
		return String.format(java.util.Locale.ROOT, "%.2f USD", amount * 1.1);
	}

	@AgentTool(title = "Delete note", description = "Deletes a note", openWorld = false)
	public String deleteNote(@AgentToolParam(description = "The note's name") String name) {
		if (this.notes.remove(name) == null) {
			throw new IllegalStateException("No note named '" + name + "'");
		}
		return "Deleted " + name;
	}

}
