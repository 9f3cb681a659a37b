package dev.agentmiddleware.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The approval console in a real headless Chromium shows the refusal when the caller of a
 * request clicks Approve on it: nobody approves their own call, and the request keeps
 * waiting for another approver.
 */
@RequiresService(TestService.CHROMIUM)
@SpringBootTest(classes = AuthorizationMcpIntegrationTests.RecordsApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "spring.config.name=authorization-it",
				"agent.middleware.todo.enabled=false", "agent.middleware.approval.web.refresh-interval=250ms" })
class SelfApprovalConsoleIntegrationTests {

	@TempDir
	Path browserProfile;

	@LocalServerPort
	int port;

	private ApproverBrowser chromium;

	private ChromeDriver browser;

	@BeforeEach
	void openBrowserAsAlice() {
		this.chromium = ApproverBrowser.open(this.browserProfile, "alice", AuthorizationMcpIntegrationTests.PASSWORD);
		this.browser = this.chromium.driver();
	}

	@AfterEach
	void closeBrowser() {
		if (this.chromium != null) {
			this.chromium.close();
		}
	}

	@Test
	void approvingYourOwnCallShowsTheRuleAndTheRequestKeepsWaiting() throws Exception {
		WebDriverWait wait = new WebDriverWait(this.browser, Duration.ofSeconds(20));
		this.browser.get("http://localhost:" + this.port + "/agent/approvals/console");
		wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "live"));
		try (McpSession writer = McpSession.openAs(this.port, "alice", AuthorizationMcpIntegrationTests.PASSWORD)) {
			CompletableFuture<CallToolResult> call = writer.callAsync("purge_records", Map.of());
			WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr.pending")));
			assertThat(row.getText()).contains("purge_records");
			assertThat(row.findElement(By.cssSelector("td.asked-by")).getText()).as("who asked").isEqualTo("alice");
			row.findElement(By.cssSelector("button[data-action='approve']")).click();
			wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"),
					"nobody approves their own call"));
			assertThat(this.browser.findElement(By.id("message")).getText()).contains("no-self-approval");
			assertThat(call).isNotDone();
			String id = this.browser.findElement(By.cssSelector("tr.pending")).getAttribute("data-id");
			assertThat(
					new ApprovalApi(this.port, "carol", AuthorizationMcpIntegrationTests.PASSWORD).deny(id, "not today")
						.status())
				.as("another approver decides")
				.isEqualTo(200);
			assertThat(call.get(20, TimeUnit.SECONDS).isError()).isTrue();
		}
	}

}
