package dev.agentmiddleware.sample;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DNS rebinding, tried against everything the sample serves over real sockets (a browser
 * page of another site sends its own name as {@code Host}, and its {@code Origin}): the
 * MCP endpoint, the actuator endpoint, the approval API and console, and {@code /chat}
 * all refuse a foreign {@code Host} with 403; a decision with a foreign {@code Origin} is
 * refused; requests from this machine without {@code Origin} are served as before.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret" })
class EdgeGuardIntegrationTests {

	private static final String ALICE = "Basic YWxpY2U6YWxpY2Utc2VjcmV0";

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void everyPathRefusesAForeignHost() throws Exception {
		for (String target : new String[] { "GET /actuator/agentmiddleware", "GET /agent/approvals",
				"GET /agent/approvals/audit", "GET /agent/approvals/console", "POST /chat", "POST /mcp" }) {
			String response = send(target, "evil.example:" + this.port, null, ALICE, "{}");
			assertThat(response).as(target).startsWith("HTTP/1.1 403").contains("this host name is not allowed");
		}
	}

	@Test
	void thisMachineIsServedAsBefore() throws Exception {
		assertThat(send("GET /actuator/agentmiddleware", "localhost:" + this.port, null, null, null))
			.startsWith("HTTP/1.1 200");
		assertThat(send("GET /agent/approvals", "127.0.0.1:" + this.port, null, ALICE, null))
			.startsWith("HTTP/1.1 200");
		assertThat(send("GET /agent/approvals/console", "localhost:" + this.port, null, ALICE, null))
			.startsWith("HTTP/1.1 200");
	}

	@Test
	void aDecisionWithAForeignOriginIsRefusedAndOneWithoutOriginIsHeard() throws Exception {
		String foreign = send("POST /agent/approvals/no-such-request/approve", "localhost:" + this.port,
				"https://evil.example", ALICE, "{}");
		assertThat(foreign).startsWith("HTTP/1.1 403").contains("this origin is not allowed");
		String fromCurl = send("POST /agent/approvals/no-such-request/approve", "localhost:" + this.port, null, ALICE,
				"{}");
		assertThat(fromCurl).startsWith("HTTP/1.1 404");
		String fromTheConsole = send("POST /agent/approvals/no-such-request/approve", "localhost:" + this.port,
				"http://localhost:" + this.port, ALICE, "{}");
		assertThat(fromTheConsole).startsWith("HTTP/1.1 404");
	}

	// One request over a plain socket: HttpClient will not send a Host header of our
	// choosing
	private String send(String target, String host, String origin, String authorization, String body) throws Exception {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(20_000);
			StringBuilder request = new StringBuilder(target).append(" HTTP/1.1\r\nHost: ")
				.append(host)
				.append("\r\nConnection: close\r\nAccept: application/json, text/event-stream, text/html\r\n");
			if (origin != null) {
				request.append("Origin: ").append(origin).append("\r\n");
			}
			if (authorization != null) {
				request.append("Authorization: ").append(authorization).append("\r\n");
			}
			byte[] content = (body != null) ? body.getBytes(StandardCharsets.UTF_8) : new byte[0];
			if (body != null) {
				request.append("Content-Type: application/json\r\nContent-Length: ")
					.append(content.length)
					.append("\r\n");
			}
			request.append("\r\n");
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
			out.write(content);
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			in.transferTo(response);
			return response.toString(StandardCharsets.UTF_8);
		}
	}

}
