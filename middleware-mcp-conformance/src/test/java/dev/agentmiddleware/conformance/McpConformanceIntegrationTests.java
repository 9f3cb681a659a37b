package dev.agentmiddleware.conformance;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.conformance.ConformanceSuite.Check;
import dev.agentmiddleware.conformance.ConformanceSuite.Run;
import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official MCP conformance suite against {@link ConformanceServerApplication} on a
 * random port, over real HTTP: every scenario of
 * {@code @modelcontextprotocol/conformance} 0.1.16 ({@code --suite all}) and every
 * 2025-11-25 scenario of 0.2.0-alpha.12. A run passes when exactly the scenarios of its
 * expected-failures baseline
 * ({@code src/test/resources/conformance/expected-failures-<version>.yml}) fail, a
 * scenario failing when a check of it fails or warns, as the suite judges a baseline: a
 * scenario failing outside it is a regression, and an entry that passes must be removed,
 * so the baseline only shrinks.
 */
@RequiresService(TestService.NODE22)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class McpConformanceIntegrationTests {

	private static final Path BASELINES = Paths.get("src/test/resources/conformance");

	@LocalServerPort
	int port;

	@BeforeAll
	static void installSuite() throws Exception {
		ConformanceSuite.install();
	}

	@Test
	void everyScenarioOfVersion0116PassesExceptItsBaseline() throws Exception {
		assertConformance("0.1.16", "--suite", "all");
	}

	@Test
	void every20251125ScenarioOfVersion020Alpha12PassesExceptItsBaseline() throws Exception {
		assertConformance("0.2.0-alpha.12", "--suite", "all", "--spec-version", "2025-11-25");
	}

	@Test
	void every20260728ScenarioOfVersion020Alpha12PassesExceptItsBaseline() throws Exception {
		assertConformanceWithBaseline("0.2.0-alpha.12", "expected-failures-0.2.0-alpha.12-2026-07-28.yml",
				"--requirements", "2026-07-28");
	}

	private void assertConformance(String version, String... selection) throws Exception {
		assertConformanceWithBaseline(version, "expected-failures-" + version + ".yml", selection);
	}

	private void assertConformanceWithBaseline(String version, String baselineFile, String... selection)
			throws Exception {
		ExpectedFailures baseline = ExpectedFailures.read(BASELINES.resolve(baselineFile));
		ConformanceSuite suite = new ConformanceSuite(version, TestService.node22().orElseThrow());
		Run run = suite.run("http://localhost:" + this.port + "/mcp", baseline.file(), selection);
		System.out.println(summary(version, run, baseline));

		assertThat(run.scenarios()).as("scenarios run by %s; its output:%n%s", run.command(), run.output())
			.isNotEmpty();
		List<String> unexpected = new ArrayList<>();
		List<String> stale = new ArrayList<>();
		run.scenarios().forEach((scenario, checks) -> {
			if (run.failed(scenario) && !baseline.reasons().containsKey(scenario)) {
				unexpected.add(scenario + ": " + failures(checks));
			}
			if (!run.failed(scenario) && baseline.reasons().containsKey(scenario)) {
				stale.add(scenario);
			}
		});
		assertThat(unexpected).as("scenarios of %s failing outside its baseline %s", version, baseline.file())
			.isEmpty();
		assertThat(stale).as("scenarios of %s that pass: remove them from %s", version, baseline.file()).isEmpty();
		assertThat(baseline.reasons().keySet()).as("baseline entries of %s that name no scenario it ran", version)
			.isSubsetOf(run.scenarios().keySet());
		assertThat(run.exitCode()).as("exit code of %s; its output:%n%s", run.command(), run.output()).isZero();
	}

	private static String failures(List<Check> checks) {
		if (checks.isEmpty()) {
			return "ran no check (see the suite's output)";
		}
		return checks.stream()
			.filter(Check::failedOrWarned)
			.map((check) -> check.id() + " " + check.status() + " (" + check.errorMessage() + ")")
			.toList()
			.toString();
	}

	private static String summary(String version, Run run, ExpectedFailures baseline) {
		StringBuilder summary = new StringBuilder();
		summary.append(String.format("%n=== MCP conformance %s: %d scenarios in %.1f s (%s)%n", version,
				run.scenarios().size(), run.millis() / 1000.0, run.command()));
		for (Map.Entry<String, List<Check>> scenario : run.scenarios().entrySet()) {
			List<Check> checks = scenario.getValue();
			long passed = checks.stream().filter((check) -> "SUCCESS".equals(check.status())).count();
			long warnings = checks.stream().filter((check) -> "WARNING".equals(check.status())).count();
			String reason = baseline.reasons().get(scenario.getKey());
			String verdict = checks.stream().anyMatch(Check::failed) ? "FAIL"
					: run.failed(scenario.getKey()) ? "WARN" : "pass";
			summary.append(String.format("  %-32s %s  %d/%d checks%s%s%n", scenario.getKey(), verdict, passed,
					checks.size(), (warnings > 0) ? ", " + warnings + " warnings" : "",
					(reason != null) ? "  [baseline: " + reason + "]" : ""));
		}
		return summary.toString();
	}

}
