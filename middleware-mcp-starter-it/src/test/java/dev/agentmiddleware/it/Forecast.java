package dev.agentmiddleware.it;

/**
 * A structured tool result.
 *
 * @param city the city
 * @param days the number of days
 * @param celsius the temperature
 * @param summary the sky, or {@code null} when unknown
 */
public record Forecast(String city, int days, double celsius, String summary) {
}
