package dev.agentmiddleware.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * W3C trace ids for the trace context tests, and the audit records they look for (read as
 * the sample's auditor account, {@code audrey}).
 */
final class TraceContexts {

	private TraceContexts() {
	}

	static String newTraceId() {
		byte[] id = new byte[16];
		ThreadLocalRandom.current().nextBytes(id);
		id[0] |= 0x10;
		return HexFormat.of().formatHex(id);
	}

	static String auditRecords(int port, String tool, String since) throws Exception {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + port + "/agent/audit?tool=" + tool + "&from=" + since))
			.timeout(Duration.ofSeconds(10))
			.header("Authorization",
					"Basic " + Base64.getEncoder()
						.encodeToString("audrey:audrey-secret".getBytes(StandardCharsets.UTF_8)))
			.build();
		HttpResponse<String> page = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
		return page.body();
	}

}
