package dev.agentmiddleware.benchmarks.load;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * One concurrent client: its own session or sessions, its own histograms.
 */
final class LoadClient implements Runnable {

	final Histogram all = new Histogram(3_600_000_000L, 3);

	final Histogram calls = new Histogram(3_600_000_000L, 3);

	long errors;

	@Nullable String firstError;

	private final LoadDriver driver;

	private final ServerProcess server;

	private final String shape;

	private final Phase phase;

	private final String name;

	private int id;

	private long next;

	private @Nullable String session;

	LoadClient(LoadDriver driver, ServerProcess server, String shape, Phase phase, String name) {
		this.driver = driver;
		this.server = server;
		this.shape = shape;
		this.phase = phase;
		this.name = name;
	}

	@Override
	public void run() {
		while (this.phase.value != LoadDriver.STOPPED) {
			try {
				if ("v2".equals(this.shape)) {
					iteration();
				}
				else if (LoadDriver.STATELESS.equals(this.shape)) {
					statelessCall();
				}
				else {
					steadyCall();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (Failure ex) {
				// counted where it happened; the next iteration starts over
			}
		}
		if (this.session != null) {
			try {
				this.driver.delete(this.server, this.session);
			}
			catch (IOException | InterruptedException ex) {
				// the server forgets the session when it idles out
			}
		}
	}

	// The public benchmark's iteration: a whole session, one call, the tool list
	private void iteration() throws InterruptedException, Failure {
		try {
			open();
			call();
			timed(false, 200, "tools/list", () -> this.driver.post(this.server, this.session,
					"{\"jsonrpc\":\"2.0\",\"id\":" + (++this.id) + ",\"method\":\"tools/list\"}"), "\"echo\"");
		}
		finally {
			if (this.session != null) {
				String closing = this.session;
				this.session = null;
				timed(false, 200, "DELETE", () -> this.driver.delete(this.server, closing), null);
			}
		}
	}

	private void steadyCall() throws InterruptedException, Failure {
		if (this.session == null) {
			open();
		}
		try {
			call();
		}
		catch (Failure ex) {
			this.session = null;
			throw ex;
		}
	}

	// 2026-07-28: no session; the request says who its client is
	private void statelessCall() throws InterruptedException, Failure {
		String text = "hello " + this.name + "-" + (this.next++);
		timed(true, 200, "tools/call", () -> this.driver.postStateless(this.server, "{\"jsonrpc\":\"2.0\",\"id\":"
				+ (++this.id) + ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\""
				+ text + "\"},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\""
				+ LoadDriver.STATELESS_PROTOCOL_VERSION + "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
				+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"" + this.name + "\",\"version\":\"1.0.0\"}}}}",
				"echo"), text);
	}

	private void open() throws InterruptedException, Failure {
		this.id = 0;
		HttpResponse<String> response = timed(false, 200, "initialize",
				() -> this.driver.post(this.server, null, LoadDriver.initialize(++this.id, this.name)), "\"result\"");
		String session = response.headers().firstValue("Mcp-Session-Id").orElse(null);
		if (session == null) {
			throw fail("initialize: no Mcp-Session-Id");
		}
		Matcher version = LoadDriver.NEGOTIATED_VERSION.matcher(response.body());
		if (!version.find() || !LoadDriver.PROTOCOL_VERSION.equals(version.group(1))) {
			throw fail("initialize: protocol version not " + LoadDriver.PROTOCOL_VERSION + ": " + response.body());
		}
		this.session = session;
		timed(false, 202, "notifications/initialized", () -> this.driver.post(this.server, session,
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), null);
	}

	private void call() throws InterruptedException, Failure {
		String text = "hello " + this.name + "-" + (this.next++);
		timed(true, 200, "tools/call",
				() -> this.driver.post(this.server, this.session,
						"{\"jsonrpc\":\"2.0\",\"id\":" + (++this.id)
								+ ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\""
								+ text + "\"}}}"),
				text);
	}

	private HttpResponse<String> timed(boolean call, int expectedStatus, String what, Request request,
			@Nullable String expectedText) throws InterruptedException, Failure {
		boolean measured = this.phase.value == LoadDriver.MEASURING;
		long start = System.nanoTime();
		HttpResponse<String> response;
		String error = null;
		try {
			response = request.send();
			int status = response.statusCode();
			boolean statusOk = (expectedStatus == 200) ? (status == 200 || (what.equals("DELETE") && status == 204))
					: (status == expectedStatus || status == 200);
			if (!statusOk) {
				error = what + ": status " + status + " " + abbreviate(response.body());
			}
			else if (response.body().contains("\"error\":{") || response.body().contains("\"isError\":true")
					|| (expectedText != null && !response.body().contains(expectedText))) {
				error = what + ": " + abbreviate(response.body());
			}
		}
		catch (IOException ex) {
			response = null;
			error = what + ": " + ex;
		}
		long micros = (System.nanoTime() - start) / 1000;
		measured = measured && this.phase.value == LoadDriver.MEASURING;
		if (measured) {
			this.all.recordValue(Math.max(1, micros));
			if (call) {
				this.calls.recordValue(Math.max(1, micros));
			}
		}
		if (error != null) {
			if (measured) {
				this.errors++;
			}
			if (this.firstError == null) {
				this.firstError = error;
			}
			throw new Failure();
		}
		return response;
	}

	private static String abbreviate(String body) {
		return (body.length() > 300) ? body.substring(0, 300) + "…" : body;
	}

	private Failure fail(String error) {
		if (this.phase.value == LoadDriver.MEASURING) {
			this.errors++;
		}
		if (this.firstError == null) {
			this.firstError = error;
		}
		return new Failure();
	}

	/**
	 * The phase every client of a round reads: warming up, measuring, stopped.
	 */
	static final class Phase {

		volatile int value = LoadDriver.WARMING;

	}

	/**
	 * One HTTP exchange of a client.
	 */
	@FunctionalInterface
	interface Request {

		HttpResponse<String> send() throws IOException, InterruptedException;

	}

	/**
	 * A request that failed, already counted.
	 */
	static final class Failure extends Exception {

		Failure() {
			super(null, null, false, false);
		}

	}

}
