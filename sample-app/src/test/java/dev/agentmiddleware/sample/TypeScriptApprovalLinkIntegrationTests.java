package dev.agentmiddleware.sample;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approval by link, end to end: the official TypeScript SDK client
 * ({@code link-client.mjs}) declares URL-mode elicitation and calls {@code delete_file};
 * the sample (provider {@code link}) sends it a link to that request's page in the
 * approval console; the approver (not the caller) opens the link in a real headless
 * Chromium, sees that one call (not the other pending one), approves it, and the
 * TypeScript call completes with the tool's result and receives
 * {@code notifications/elicitation/complete}.
 */
@RequiresService({ TestService.NODE, TestService.CHROMIUM })
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "sample.approver.username=bob",
		"sample.approver.password=bob-secret", "agent.middleware.approval.web.refresh-interval=250ms" })
class TypeScriptApprovalLinkIntegrationTests {

	private static final Path CLIENT_DIRECTORY = Paths.get("target/ts-mcp-client");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	static Path workspace;

	@TempDir
	Path browserProfile;

	@LocalServerPort
	int port;

	private ApproverBrowser chromium;

	private ChromeDriver browser;

	private Process client;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@BeforeEach
	void installClientAndOpenBrowserAsTheApprover() throws Exception {
		TypeScriptClientIntegrationTests.installClient();
		Files.copy(Paths.get("src/test/node/mcp-client/link-client.mjs"), CLIENT_DIRECTORY.resolve("link-client.mjs"),
				StandardCopyOption.REPLACE_EXISTING);
		this.chromium = ApproverBrowser.open(this.browserProfile, "bob", "bob-secret");
		this.browser = this.chromium.driver();
	}

	@AfterEach
	void closeBrowserAndClient() {
		if (this.client != null && this.client.isAlive()) {
			this.client.destroyForcibly();
		}
		if (this.chromium != null) {
			this.chromium.close();
		}
	}

	@Test
	void theLinkOpensThatOneRequestInTheConsoleWhereTheApproverApprovesItAndTheTypeScriptCallCompletes()
			throws Exception {
		Files.writeString(workspace.resolve("keep-me.txt"), "another caller's file");
		Files.writeString(workspace.resolve("linked.txt"), "the TypeScript client's file");
		ApprovalApi approver = new ApprovalApi(this.port, "bob", "bob-secret");
		try (McpSession other = McpSession.open(this.port)) {
			// Another caller's call waits first; its client has no URL elicitation, so it
			// gets no link (the queue)
			CompletableFuture<CallToolResult> otherCall = other.callAsync("delete_file", Map.of("path", "keep-me.txt"));
			String otherId = approver.awaitPendingFor("delete_file", "keep-me.txt").get("id").asString();

			BlockingQueue<String> lines = start("delete_file", "{\"path\":\"linked.txt\"}");
			JsonNode elicitation = JSON.readTree(next(lines)).get("elicitation");
			assertThat(elicitation.get("mode").asString()).isEqualTo("url");
			String id = elicitation.get("elicitationId").asString();
			assertThat(id).isNotEqualTo(otherId);
			assertThat(elicitation.get("url").asString())
				.isEqualTo("http://localhost:" + this.port + "/agent/approvals/console/requests/" + id);
			assertThat(elicitation.get("message").asString()).contains("delete_file").contains("linked.txt");
			assertThat(approver.pending()).as("two calls wait").hasSize(2);

			WebDriverWait wait = new WebDriverWait(this.browser, Duration.ofSeconds(20));
			this.browser.get(elicitation.get("url").asString());
			wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "live"));
			WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr.pending")));
			assertThat(this.browser.findElements(By.cssSelector("tr.pending"))).as("only the linked request")
				.hasSize(1);
			assertThat(row.getAttribute("data-id")).isEqualTo(id);
			assertThat(row.getText()).contains("delete_file").contains("linked.txt").doesNotContain("keep-me.txt");
			assertThat(this.browser.findElement(By.id("one")).getText()).contains(id);

			row.findElement(By.cssSelector("button[data-action='approve']")).click();
			JsonNode outcome = JSON.readTree(last(lines));
			assertThat(this.client.waitFor(30, TimeUnit.SECONDS)).isTrue();
			assertThat(this.client.exitValue()).isZero();
			assertThat(outcome.get("result").get("isError").asBoolean()).isFalse();
			assertThat(outcome.get("result").get("text").asString()).isEqualTo("Deleted linked.txt");
			assertThat(outcome.get("completed").valueStream().map(JsonNode::asString))
				.as("notifications/elicitation/complete")
				.containsExactly(id);
			assertThat(workspace.resolve("linked.txt")).doesNotExist();

			// The page now shows that request's decision, by the approver; the other call
			// still waits
			wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("tr.pending")));
			wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#audit tr.decision"), "bob"));
			assertThat(this.browser.findElements(By.cssSelector("#audit tr.decision"))).hasSize(1);
			assertThat(approver.pending()).extracting((request) -> request.get("id").asString())
				.containsExactly(otherId);
			assertThat(otherCall).isNotDone();
			assertThat(approver.deny(otherId, "not this one").status()).isEqualTo(200);
			assertThat(otherCall.get(20, TimeUnit.SECONDS).isError()).isTrue();
			assertThat(workspace.resolve("keep-me.txt")).exists();
		}
	}

	// Runs link-client.mjs; its stdout lines arrive in the queue as the client prints
	// them
	private BlockingQueue<String> start(String tool, String arguments) throws Exception {
		this.client = new ProcessBuilder(
				List.of("node", "link-client.mjs", "http://localhost:" + this.port + "/mcp", tool, arguments))
			.directory(CLIENT_DIRECTORY.toFile())
			.redirectErrorStream(true)
			.start();
		this.client.getOutputStream().close();
		BlockingQueue<String> lines = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> {
			try (BufferedReader output = new BufferedReader(
					new InputStreamReader(this.client.getInputStream(), StandardCharsets.UTF_8))) {
				output.lines().forEach(lines::add);
			}
			catch (java.io.IOException ex) {
				lines.add("reading the client's output failed: " + ex);
			}
		}, "link-client-output");
		reader.setDaemon(true);
		reader.start();
		return lines;
	}

	// The next JSON line of the client; anything else it prints (an error) fails the test
	// with that text
	private static String next(BlockingQueue<String> lines) throws InterruptedException {
		String line = lines.poll(60, TimeUnit.SECONDS);
		assertThat(line).as("a line from link-client.mjs").isNotNull();
		assertThat(line).as("link-client.mjs printed").startsWith("{");
		return line;
	}

	private static String last(BlockingQueue<String> lines) throws InterruptedException {
		String line = next(lines);
		assertThat(line).as("the call's outcome").contains("\"result\"");
		return line;
	}

}
