package dev.agentmiddleware.sample.weather;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.springframework.stereotype.Component;

/**
 * A trip planner that talks to its client through a {@link ToolClient}: it logs what it
 * does ({@code notifications/message}: what it looks up, a warning for bad weather, an
 * error for the days the forecast does not cover), asks the client's user how long and at
 * what pace ({@code elicitation/create}, a form with defaults and a choice), and asks the
 * client's model to sum the plan up ({@code sampling/createMessage}). A client that
 * cannot ask its user gets a plan of {@value #DEFAULT_DAYS} days at a balanced pace; one
 * that cannot sample gets the plan without a summary.
 */
@Component
public class TripTools {

	/** The days planned when the user is not asked. */
	public static final int DEFAULT_DAYS = 3;

	/** The longest trip planned. */
	public static final int MAX_DAYS = 14;

	private static final List<String> PACES = List.of("relaxed", "balanced", "packed");

	private static final Set<String> BAD_WEATHER = Set.of("light rain", "heavy rain", "thunderstorms", "snow");

	private static final List<String> OUTDOOR = List.of("the old town", "the harbour", "the botanical garden",
			"the city walls", "the market");

	private static final List<String> INDOOR = List.of("the city museum", "the covered market", "the cathedral",
			"the modern art gallery", "the aquarium");

	@AgentTool(title = "Plan a trip",
			description = "Plans a trip to a city around its weather forecast; asks the user how many days and at what pace",
			safety = SafetyLevel.MODERATE)
	public String planTrip(@AgentToolParam(description = "City to visit, for example Lisbon") String city,
			ToolClient client) {
		if (city.isBlank()) {
			throw new IllegalArgumentException("City must not be blank; give a city name such as Lisbon");
		}
		String name = city.strip();
		client.log(ToolClient.Level.INFO, "looking up the weather in " + name);
		Weather today = WeatherTools.forecast(name, 0);
		if (BAD_WEATHER.contains(today.condition())) {
			client.log(ToolClient.Level.WARNING, today.condition() + " in " + name + " today: the plan starts indoors");
		}
		int days = DEFAULT_DAYS;
		String pace = "balanced";
		if (client.canElicit()) {
			ElicitationResult answer = client.elicit(ElicitationRequest
				.builder("Planning a trip to " + name + ": how many days (1 to " + MAX_DAYS + "), and at what pace?")
				.integer("days", "Days", DEFAULT_DAYS)
				.choice("pace", "Pace", PACES, pace)
				.required("days", "pace")
				.build());
			if (!answer.isAccepted()) {
				return "No trip planned: the user chose " + answer.action().name().toLowerCase(Locale.ROOT);
			}
			days = ((Number) answer.content().get("days")).intValue();
			pace = String.valueOf(answer.content().get("pace"));
			if (days < 1 || days > MAX_DAYS || !PACES.contains(pace)) {
				throw new IllegalArgumentException(
						"A trip lasts 1 to " + MAX_DAYS + " days at a pace of " + PACES + ", not " + days + " " + pace);
			}
		}
		if (days > WeatherTools.FORECAST_DAYS) {
			client.log(ToolClient.Level.ERROR, "no forecast for days " + (WeatherTools.FORECAST_DAYS + 1) + " to "
					+ days + ": they are planned without the weather");
		}
		String plan = plan(name, days, pace);
		if (!client.canSample()) {
			return plan;
		}
		String summary = client
			.sample(SamplingRequest.builder()
				.systemPrompt("You sum up travel plans in one friendly sentence.")
				.user("Sum up this plan:\n" + plan)
				.maxTokens(100)
				.build())
			.text();
		return plan + "\nIn short: " + summary;
	}

	private static String plan(String city, int days, String pace) {
		StringBuilder plan = new StringBuilder(
				"A " + pace + " trip of " + days + ((days == 1) ? " day" : " days") + " to " + city + ":");
		int sights = PACES.indexOf(pace) + 1;
		for (int day = 0; day < days; day++) {
			String sky = "no forecast";
			List<String> places = OUTDOOR;
			if (day < WeatherTools.FORECAST_DAYS) {
				Weather weather = WeatherTools.forecast(city, day);
				sky = weather.condition() + ", " + weather.temperatureCelsius() + " °C";
				places = BAD_WEATHER.contains(weather.condition()) ? INDOOR : OUTDOOR;
			}
			plan.append("\nDay ").append(day + 1).append(" (").append(sky).append(")");
			plan.append(": ");
			for (int sight = 0; sight < sights; sight++) {
				plan.append((sight > 0) ? ", " : "").append(places.get((day * sights + sight) % places.size()));
			}
		}
		return plan.toString();
	}

}
