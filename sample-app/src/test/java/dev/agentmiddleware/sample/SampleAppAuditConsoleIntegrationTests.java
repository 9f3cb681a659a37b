package dev.agentmiddleware.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The approval console's audit tab in a real headless Chromium: the auditor account
 * ({@code sample.auditor.*}), which is no approver, opens the console and sees the newest
 * tool calls (time, tool, principal, outcome, deciding layer, duration, trace id, never
 * an argument value or session id) and filters them; the approver sees no audit tab, and
 * the audit API answers their browser 403. The sample's database is a fresh in-memory one
 * here, so that only this test's calls are in the trail.
 */
@RequiresService(TestService.CHROMIUM)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.approver.username=alice", "sample.approver.password=alice-secret",
				"sample.auditor.username=audrey", "sample.auditor.password=audrey-secret",
				"spring.datasource.url=jdbc:h2:mem:audit-console;DB_CLOSE_DELAY=-1",
				"agent.middleware.approval.web.refresh-interval=250ms" })
class SampleAppAuditConsoleIntegrationTests {

	@TempDir
	static Path workspace;

	@TempDir
	Path browserProfile;

	@LocalServerPort
	int port;

	private ApproverBrowser chromium;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@AfterEach
	void closeBrowser() {
		if (this.chromium != null) {
			this.chromium.close();
		}
	}

	@Test
	void auditorSeesTheNewestCallsInTheAuditTabAndFiltersThem() {
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("list_files", Map.of());
			session.fail("list_files", Map.of("directory", Map.of("secret-looking", "an argument value")));
		}
		ChromeDriver browser = open("audrey", "audrey-secret");
		WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
		// The auditor is no approver: the approval queue is not theirs, the audit tab is
		wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("not-approver")));
		wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("audit-trail")));
		assertThat(browser.findElement(By.id("tab-audit")).isDisplayed()).isTrue();
		assertThat(browser.findElement(By.id("tab-approvals")).isDisplayed()).isFalse();
		assertThat(browser.findElement(By.id("approvals-tab")).isDisplayed()).isFalse();
		assertThat(headers(browser)).containsExactly("Time", "Tool", "Principal", "Outcome", "Decided by", "Duration",
				"Trace id");
		// The writer is batched: the records show up on a later refresh
		wait.until((driver) -> outcomes(browser).size() == 2);
		assertThat(outcomes(browser)).containsExactly("invalid_arguments", "succeeded");
		List<List<String>> rows = rows(browser);
		assertThat(rows).allSatisfy((row) -> {
			assertThat(row).hasSize(7);
			assertThat(row.get(0)).isNotBlank();
			assertThat(row.get(1)).isEqualTo("list_files");
			assertThat(row.get(2)).isEqualTo("anonymous");
			// Neither call was refused by a layer; the MCP client sent no trace context,
			// so each call's trace is one the sample's tracer started
			assertThat(row.get(4)).isEqualTo("—");
			assertThat(row.get(6)).matches("[0-9a-f]{32}");
			assertThat(row.get(5)).matches("[0-9.]+ m?s");
		});
		assertThat(browser.findElement(By.id("status")).getText()).startsWith("live");
		assertThat(browser.getPageSource()).doesNotContain("an argument value")
			.doesNotContain("secret-looking")
			.doesNotContain("sid-");

		new Select(browser.findElement(By.id("audit-outcome"))).selectByValue("succeeded");
		browser.findElement(By.cssSelector("#audit-filters button")).click();
		wait.until((driver) -> outcomes(browser).equals(List.of("succeeded")));
		browser.findElement(By.id("audit-tool")).sendKeys("read_file");
		browser.findElement(By.cssSelector("#audit-filters button")).click();
		wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("audit-empty")));
		assertThat(outcomes(browser)).isEmpty();
		assertThat(browser.findElement(By.id("audit-message")).getText()).isEmpty();
	}

	@Test
	void approverSeesNoAuditTabAndTheAuditApiRefusesTheirBrowser() {
		ChromeDriver browser = open("alice", "alice-secret");
		WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
		wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "live"));
		assertThat(browser.findElement(By.id("tabs")).isDisplayed()).isFalse();
		assertThat(browser.findElement(By.id("tab-audit")).isDisplayed()).isFalse();
		assertThat(browser.findElement(By.id("audit-tab")).isDisplayed()).isFalse();
		assertThat(browser.findElement(By.id("not-approver")).isDisplayed()).isFalse();
		assertThat(browser.findElement(By.id("pending-empty")).isDisplayed()).isTrue();
		Object status = browser.executeAsyncScript(
				"const done = arguments[arguments.length - 1]; fetch('/agent/audit').then((r) => done(r.status));");
		assertThat(status).isEqualTo(403L);
	}

	private ChromeDriver open(String username, String password) {
		this.chromium = ApproverBrowser.open(this.browserProfile, username, password);
		ChromeDriver browser = this.chromium.driver();
		browser.get("http://localhost:" + this.port + "/agent/approvals/console");
		return browser;
	}

	private static List<String> headers(ChromeDriver browser) {
		return browser.findElements(By.cssSelector("#audit-trail th")).stream().map(WebElement::getText).toList();
	}

	private static List<String> outcomes(ChromeDriver browser) {
		return rows(browser).stream().map((row) -> row.get(3)).toList();
	}

	// The cells' text, read in one script: the table is redrawn on every refresh
	@SuppressWarnings("unchecked")
	private static List<List<String>> rows(ChromeDriver browser) {
		return (List<List<String>>) browser.executeScript("return Array.from(document.querySelectorAll("
				+ "'#audit-trail tr.audit-record'), (row) => Array.from(row.cells, (cell) => cell.textContent));");
	}

}
