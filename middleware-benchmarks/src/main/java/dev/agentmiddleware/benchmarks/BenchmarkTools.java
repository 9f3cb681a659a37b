package dev.agentmiddleware.benchmarks;

import java.util.List;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.springframework.ai.tool.annotation.Tool;

/**
 * The tools every benchmark calls: one with a single string argument, one with a
 * ~200-byte argument object. Each method carries both our {@code @AgentTool} and Spring
 * AI's {@code @Tool}, so both frameworks call the same code.
 */
public class BenchmarkTools {

	/** The JSON arguments of {@link #echo}. */
	public static final String ECHO_JSON = "{\"text\":\"hello\"}";

	/** The JSON arguments of {@link #planTrip}: about 200 bytes. */
	public static final String TRIP_JSON = "{\"trip\":{\"from\":\"Lisbon\",\"to\":\"Porto\",\"departure\":\"2026-12-01\","
			+ "\"travellers\":2,\"stops\":[\"Obidos\",\"Nazare\",\"Coimbra\",\"Aveiro\"],"
			+ "\"notes\":\"window seats, vegetarian lunch, late check-in\",\"budget\":450.5}}";

	/**
	 * Echoes its argument.
	 * @param text the text
	 * @return the same text
	 */
	@AgentTool(description = "Echoes text", safety = SafetyLevel.SAFE, readOnly = true, idempotent = true)
	@Tool(description = "Echoes text")
	public String echo(String text) {
		return text;
	}

	/**
	 * Summarises a trip.
	 * @param trip the trip
	 * @return a one-line summary
	 */
	@AgentTool(description = "Plans a trip", safety = SafetyLevel.SAFE, readOnly = true, idempotent = true)
	@Tool(description = "Plans a trip")
	public String planTrip(Trip trip) {
		return trip.from() + " to " + trip.to() + " with " + trip.stops().size() + " stops";
	}

	/**
	 * A trip: the ~200-byte argument object.
	 *
	 * @param from where it starts
	 * @param to where it ends
	 * @param departure the departure date
	 * @param travellers how many travel
	 * @param stops the stops on the way
	 * @param notes free text
	 * @param budget the budget in euros
	 */
	public record Trip(String from, String to, String departure, int travellers, List<String> stops, String notes,
			double budget) {
	}

}
