package dev.agentmiddleware.sample.weather;

/**
 * The weather in a city, as {@link WeatherTools#getWeather} reports it.
 *
 * @param city the city, as it was asked for
 * @param temperatureCelsius the air temperature in degrees Celsius
 * @param condition the sky, such as {@code sunny} or {@code light rain}
 * @param humidityPercent the relative humidity, from 0 to 100
 */
public record Weather(String city, int temperatureCelsius, String condition, int humidityPercent) {

}
