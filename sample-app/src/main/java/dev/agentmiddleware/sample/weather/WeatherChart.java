package dev.agentmiddleware.sample.weather;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import javax.imageio.ImageIO;

/**
 * Draws the temperatures of a forecast as a small PNG bar chart, in memory (no display
 * needed, no fonts: bars only), one bar a day: red above 0 °C, blue at or below it, on a
 * grey line at 0 °C.
 */
final class WeatherChart {

	private static final int BAR_WIDTH = 24;

	private static final int GAP = 8;

	private static final int HEIGHT = 100;

	// The forecast's temperatures range from -10 to 35 °C: 2 pixels a degree, 0 °C at 20
	// pixels above the bottom
	private static final int ZERO = HEIGHT - 20;

	private static final int PIXELS_PER_DEGREE = 2;

	private WeatherChart() {
	}

	static byte[] png(List<Weather> days) {
		BufferedImage image = new BufferedImage(GAP + days.size() * (BAR_WIDTH + GAP), HEIGHT,
				BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = image.createGraphics();
		try {
			graphics.setColor(Color.WHITE);
			graphics.fillRect(0, 0, image.getWidth(), HEIGHT);
			for (int day = 0; day < days.size(); day++) {
				int temperature = days.get(day).temperatureCelsius();
				int height = Math.abs(temperature) * PIXELS_PER_DEGREE;
				int x = GAP + day * (BAR_WIDTH + GAP);
				graphics.setColor((temperature > 0) ? new Color(0xD9534F) : new Color(0x428BCA));
				graphics.fillRect(x, (temperature > 0) ? ZERO - height : ZERO, BAR_WIDTH, height);
			}
			graphics.setColor(Color.GRAY);
			graphics.drawLine(0, ZERO, image.getWidth(), ZERO);
		}
		finally {
			graphics.dispose();
		}
		ByteArrayOutputStream png = new ByteArrayOutputStream();
		try {
			ImageIO.write(image, "png", png);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Writing the chart failed", ex);
		}
		return png.toByteArray();
	}

}
