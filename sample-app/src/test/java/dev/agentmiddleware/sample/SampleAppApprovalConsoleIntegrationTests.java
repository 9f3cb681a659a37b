package dev.agentmiddleware.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The approval console in a real headless Chromium, driven by Selenium: a waiting call
 * shows up without a reload, and clicking Approve lets it complete. Leaves a screenshot
 * of the console with the pending request in {@code target/approval-console.png} (the one
 * in {@code docs/} was taken this way).
 */
@RequiresService(TestService.CHROMIUM)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "sample.approver.username=alice",
		"sample.approver.password=alice-secret", "agent.middleware.approval.web.refresh-interval=250ms" })
class SampleAppApprovalConsoleIntegrationTests {

	@TempDir
	static Path workspace;

	@TempDir
	Path browserProfile;

	@LocalServerPort
	int port;

	private ApproverBrowser chromium;

	private ChromeDriver browser;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@BeforeEach
	void openBrowser() {
		this.chromium = ApproverBrowser.open(this.browserProfile, "alice", "alice-secret");
		this.browser = this.chromium.driver();
	}

	@AfterEach
	void closeBrowser() {
		if (this.chromium != null) {
			this.chromium.close();
		}
	}

	@Test
	void pendingRequestAppearsWithoutReloadAndApproveCompletesTheWaitingCall() throws Exception {
		Path file = workspace.resolve("old-report.txt");
		Files.writeString(file, "quarterly numbers");
		WebDriverWait wait = new WebDriverWait(this.browser, Duration.ofSeconds(20));
		this.browser.get("http://localhost:" + this.port + "/agent/approvals/console");
		wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "live"));
		assertThat(this.browser.findElement(By.id("pending-empty")).isDisplayed()).isTrue();
		// A marker that a reload would wipe out.
		((JavascriptExecutor) this.browser).executeScript("window.notReloaded = true;");

		try (McpSession session = McpSession.open(this.port)) {
			CompletableFuture<CallToolResult> call = session.callAsync("delete_file", Map.of("path", "old-report.txt"));
			WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr.pending")));
			assertThat(row.getText()).contains("delete_file").contains("old-report.txt");
			assertThat(((JavascriptExecutor) this.browser).executeScript("return window.notReloaded === true;"))
				.isEqualTo(Boolean.TRUE);
			assertThat(call).isNotDone();
			Path screenshot = this.browser.getScreenshotAs(OutputType.FILE).toPath();
			Files.copy(screenshot, Path.of("target", "approval-console.png"), StandardCopyOption.REPLACE_EXISTING);

			row.findElement(By.cssSelector("button[data-action='approve']")).click();
			assertThat(McpSession.text(call.get(20, TimeUnit.SECONDS))).isEqualTo("Deleted old-report.txt");
			assertThat(file).doesNotExist();
			wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("tr.pending")));
			wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#audit tr.decision"),
					"approved"));
			// The audit table is redrawn on every refresh: read it through the wait,
			// which looks the row up again
			wait.until(
					ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#audit tr.decision"), "alice"));
		}
	}

}
