package dev.agentmiddleware.sample.browser;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.tool.ToolSessionCrashedException;

import org.springframework.stereotype.Component;

/**
 * A simulated browser process: it renders pages until it crashes, and comes back when
 * restarted.
 */
@Component
public class BrowserSession {

	private final AtomicBoolean crashed = new AtomicBoolean();

	private final AtomicInteger generation = new AtomicInteger(1);

	/**
	 * Renders a page.
	 * @param url the page
	 * @return the page's title
	 * @throws ToolSessionCrashedException if the browser process is gone
	 */
	public String render(String url) {
		if (this.crashed.get()) {
			throw new ToolSessionCrashedException("browser process is gone");
		}
		return "Title of " + url + " (browser #" + this.generation.get() + ")";
	}

	/**
	 * Makes the browser process die.
	 */
	public void crash() {
		this.crashed.set(true);
	}

	/**
	 * Starts a fresh browser process.
	 */
	public void restart() {
		this.generation.incrementAndGet();
		this.crashed.set(false);
	}

	/**
	 * How many browser processes were started.
	 * @return the process count
	 */
	public int generation() {
		return this.generation.get();
	}

}
