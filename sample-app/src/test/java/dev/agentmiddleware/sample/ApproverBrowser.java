package dev.agentmiddleware.sample;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

import dev.agentmiddleware.testsupport.TestService;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium (Debian's {@code chromium} and {@code chromium-driver},
 * {@link TestService#CHROMIUM}) with a profile of its own, sending an approver's Basic
 * credentials on every request of the page, as a browser does after a Basic login.
 * <pre>{@code
 * try (ApproverBrowser approver = ApproverBrowser.open(profile, "alice", "alice-secret")) {
 *     approver.driver().get("http://localhost:" + port + "/agent/approvals/console");
 * }
 * }</pre>
 */
final class ApproverBrowser implements AutoCloseable {

	private final ChromeDriverService service;

	private final ChromeDriver driver;

	private ApproverBrowser(ChromeDriverService service, ChromeDriver driver) {
		this.service = service;
		this.driver = driver;
	}

	/**
	 * Starts the browser.
	 * @param profile an empty directory for the browser's profile
	 * @param username the approver
	 * @param password the approver's password
	 * @return the running browser; closing it quits the browser and its driver
	 */
	static ApproverBrowser open(Path profile, String username, String password) {
		ChromeDriverService service = new ChromeDriverService.Builder()
			.usingDriverExecutable(TestService.chromedriver().toFile())
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions().setBinary(TestService.chromium().toFile())
			.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
					"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
					"--user-data-dir=" + profile);
		ChromeDriver driver;
		try {
			driver = new ChromeDriver(service, options);
		}
		catch (RuntimeException ex) {
			service.stop();
			throw ex;
		}
		driver.manage().window().setSize(new Dimension(1400, 800));
		String credentials = Base64.getEncoder()
			.encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
		driver.executeCdpCommand("Network.enable", Map.of());
		driver.executeCdpCommand("Network.setExtraHTTPHeaders",
				Map.of("headers", Map.of("Authorization", "Basic " + credentials)));
		return new ApproverBrowser(service, driver);
	}

	ChromeDriver driver() {
		return this.driver;
	}

	@Override
	public void close() {
		try {
			this.driver.quit();
		}
		finally {
			this.service.stop();
		}
	}

}
