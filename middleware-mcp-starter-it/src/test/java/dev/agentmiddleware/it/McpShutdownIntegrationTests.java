package dev.agentmiddleware.it;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stopping the application while MCP clients are connected, one of them holding its
 * server-sent-events stream open, completes in a few seconds instead of waiting for the
 * graceful-shutdown timeout.
 */
class McpShutdownIntegrationTests {

	// A held stream would make stopping wait for the whole graceful-shutdown phase; a
	// quick stop takes a few seconds
	// at most, also on a loaded 2-core CI machine. The bound sits well between the two.
	private static final Duration GRACEFUL_SHUTDOWN_PHASE = Duration.ofSeconds(60);

	private static final Duration QUICK_STOP = Duration.ofSeconds(20);

	@Test
	void stopsLongBeforeTheGracefulShutdownTimeoutWhileClientsAreConnected() throws Exception {
		ConfigurableApplicationContext context = SpringApplication.run(FreshMcpApplication.class, "--server.port=0",
				"--server.shutdown=graceful",
				"--spring.lifecycle.timeout-per-shutdown-phase=" + GRACEFUL_SHUTDOWN_PHASE.toSeconds() + "s");
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		McpSyncClient client = McpClients.connect(port);
		client.callTool(new CallToolRequest("convert", Map.of("amount", 2)));
		RawMcpHttp raw = new RawMcpHttp(port);
		String session = raw.initialize();
		HttpRequest stream = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/mcp"))
			.header("Accept", "text/event-stream")
			.header("Mcp-Session-Id", session)
			.GET()
			.build();
		HttpResponse<InputStream> open = HttpClient.newHttpClient()
			.sendAsync(stream, HttpResponse.BodyHandlers.ofInputStream())
			.get(30, java.util.concurrent.TimeUnit.SECONDS);
		assertThat(open.statusCode()).isEqualTo(200);
		CompletableFuture<byte[]> streamEnd = CompletableFuture.supplyAsync(() -> {
			try (InputStream body = open.body()) {
				return body.readAllBytes();
			}
			catch (java.io.IOException ex) {
				return new byte[0];
			}
		}, (task) -> {
			// A thread of its own: the common pool may have a single, busy worker on a
			// 2-core machine
			Thread reader = new Thread(task, "stream-reader");
			reader.setDaemon(true);
			reader.start();
		});

		long start = System.nanoTime();
		context.close();
		Duration stopping = Duration.ofNanos(System.nanoTime() - start);

		assertThat(stopping).isLessThan(QUICK_STOP);
		assertThat(streamEnd.get(30, java.util.concurrent.TimeUnit.SECONDS)).isNotNull();
		// The client is left as it is: the server it would say goodbye to is gone
	}

}
