package dev.agentmiddleware.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agentmiddleware.autoconfigure.mcp.McpTransportClock;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code GET} event stream that found its session just before a {@code DELETE} ended
 * it: the {@code GET} is held, deterministically, inside the session lookup (the
 * transport's clock is read there) while the {@code DELETE} runs to its end. It must not
 * be left open on the ended session: such a stream was never pinged and never ended, so a
 * dropped client left its request active and graceful shutdown waited out its whole
 * timeout.
 */
@SpringBootTest(classes = { FreshMcpApplication.class, McpStreamRacingDeleteIntegrationTests.GatedClock.class },
		webEnvironment = WebEnvironment.RANDOM_PORT)
class McpStreamRacingDeleteIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	GatedClock clock;

	@Test
	void streamThatFoundItsSessionBeforeTheDeleteEndedItIsNotLeftOpen() throws Exception {
		RawMcpHttp raw = new RawMcpHttp(this.port);
		String session = raw.initialize();
		this.clock.holdNextReader();
		HttpRequest get = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/mcp"))
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", session)
			.GET()
			.build();
		CompletableFuture<HttpResponse<InputStream>> stream = HttpClient.newHttpClient()
			.sendAsync(get, HttpResponse.BodyHandlers.ofInputStream());
		try {
			assertThat(this.clock.awaitHeld()).as("the GET reached the session lookup").isTrue();
			HttpResponse<String> deleted = raw.send("DELETE", Map.of("Mcp-Session-Id", session),
					HttpRequest.BodyPublishers.noBody());
			assertThat(deleted.statusCode()).isEqualTo(200);
		}
		finally {
			this.clock.release();
		}
		HttpResponse<InputStream> response = stream.get(10, TimeUnit.SECONDS);
		CompletableFuture<String> body = CompletableFuture.supplyAsync(() -> read(response.body()), (task) -> {
			// A thread of its own: the common pool may have a single, busy worker on a
			// 2-core machine
			Thread reader = new Thread(task, "stream-reader");
			reader.setDaemon(true);
			reader.start();
		});
		// Refused as the session it names has ended, or ended at once: either way the
		// request does not stay open
		assertThat(body).as("the GET's response ends").succeedsWithin(Duration.ofSeconds(10));
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(RawMcpHttp.errorOf(body.join()).get("code").asInt()).isEqualTo(-32001);
	}

	private static String read(InputStream in) {
		try (in) {
			return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	/**
	 * The transport's clock, which can hold the next request that reads it (a session
	 * lookup) until released.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class GatedClock extends Clock {

		private final AtomicBoolean armed = new AtomicBoolean();

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		@Bean
		McpTransportClock mcpTransportClock() {
			return () -> this;
		}

		void holdNextReader() {
			this.armed.set(true);
		}

		boolean awaitHeld() throws InterruptedException {
			return this.held.await(10, TimeUnit.SECONDS);
		}

		void release() {
			this.released.countDown();
		}

		@Override
		public Instant instant() {
			if (this.armed.compareAndSet(true, false)) {
				this.held.countDown();
				try {
					this.released.await(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return Instant.now();
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

	}

}
