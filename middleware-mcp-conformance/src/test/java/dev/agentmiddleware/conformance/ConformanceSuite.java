package dev.agentmiddleware.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One pinned version of the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance}), installed with {@code npm ci} from the
 * committed lock file ({@code src/test/node/conformance}) into {@code target/}, and run
 * against a server with Node.js 22:
 * {@code conformance server --url ... --expected-failures ... -o ...}. Its results are
 * read from the {@code checks.json} the suite writes for each scenario it ran.
 */
final class ConformanceSuite {

	private static final Path SOURCES = Paths.get("src/test/node/conformance");

	private static final Path DIRECTORY = Paths.get("target/conformance-suite");

	// server-<scenario>-<ISO timestamp with ':' and '.' as '-'>, as the suite names its
	// result directories
	private static final Pattern RESULT_DIRECTORY = Pattern
		.compile("server-(.+)-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z");

	private static final Pattern SCENARIO_STARTED = Pattern.compile("=== Running scenario: (\\S+) ===");

	private final String version;

	private final Path node;

	ConformanceSuite(String version, Path node) {
		this.version = version;
		this.node = node;
	}

	/**
	 * Installs both pinned versions into {@code target/conformance-suite}, unless the
	 * lock file there is already the committed one and was installed.
	 */
	static void install() throws IOException, InterruptedException {
		Files.createDirectories(DIRECTORY);
		Path installed = DIRECTORY.resolve("node_modules/.package-lock.json");
		boolean current = Files.isRegularFile(installed) && Files.isRegularFile(DIRECTORY.resolve("package-lock.json"))
				&& Files.mismatch(SOURCES.resolve("package-lock.json"), DIRECTORY.resolve("package-lock.json")) == -1;
		if (current) {
			return;
		}
		for (String file : new String[] { "package.json", "package-lock.json" }) {
			Files.copy(SOURCES.resolve(file), DIRECTORY.resolve(file), StandardCopyOption.REPLACE_EXISTING);
		}
		Path log = DIRECTORY.resolve("npm-ci.log");
		int exit = run(List.of("npm", "ci", "--no-audit", "--no-fund"), log, 300);
		if (exit != 0) {
			throw new IllegalStateException("npm ci failed (" + exit + "):\n" + Files.readString(log));
		}
	}

	/**
	 * Runs the suite against a server.
	 * @param url the server's MCP endpoint
	 * @param baseline the expected-failures file handed to the suite
	 * @param selection the scenarios to run ({@code --suite all}, ...)
	 * @return what it found
	 */
	Run run(String url, Path baseline, String... selection) throws IOException, InterruptedException {
		// One directory and log per run, named after its baseline (two runs of one
		// version
		// select different scenarios)
		String name = baseline.getFileName()
			.toString()
			.replaceFirst("^expected-failures-", "")
			.replaceFirst("\\.yml$", "");
		Path output = DIRECTORY.resolve("results-" + name);
		deleteRecursively(output);
		Files.createDirectories(output);
		Path cli = DIRECTORY.resolve("node_modules/conformance-" + this.version + "/dist/index.js").toAbsolutePath();
		List<String> command = new ArrayList<>(List.of(this.node.toString(), cli.toString(), "server", "--url", url));
		command.addAll(Arrays.asList(selection));
		command.addAll(List.of("--expected-failures", baseline.toAbsolutePath().toString(), "-o",
				output.toAbsolutePath().toString()));
		Path log = DIRECTORY.resolve("output-" + name + ".log");
		long started = System.nanoTime();
		int exit = run(command, log, 600);
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		String text = Files.readString(log);
		return new Run(String.join(" ", command), exit, text, millis, scenarios(text, output));
	}

	// Each scenario the suite started, with the checks it wrote; one that ended without
	// checks.json (the suite
	// reports a scenario that threw as "Failed to run scenario") gets none
	private static Map<String, List<Check>> scenarios(String output, Path results) throws IOException {
		Map<String, List<Check>> scenarios = new LinkedHashMap<>();
		Matcher started = SCENARIO_STARTED.matcher(output);
		while (started.find()) {
			scenarios.put(started.group(1), List.of());
		}
		try (Stream<Path> directories = Files.list(results)) {
			for (Path directory : directories.toList()) {
				Matcher name = RESULT_DIRECTORY.matcher(directory.getFileName().toString());
				Path checks = directory.resolve("checks.json");
				if (name.matches() && Files.isRegularFile(checks)) {
					scenarios.put(name.group(1), checks(checks));
				}
			}
		}
		return scenarios;
	}

	private static List<Check> checks(Path file) {
		List<Check> checks = new ArrayList<>();
		for (JsonNode check : JsonMapper.shared().readTree(file.toFile())) {
			JsonNode message = check.get("errorMessage");
			checks.add(new Check(check.get("id").asString(), check.get("status").asString(),
					(message != null && !message.isNull()) ? message.asString() : null));
		}
		return checks;
	}

	private static int run(List<String> command, Path log, long timeoutSeconds)
			throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).directory(DIRECTORY.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		process.getOutputStream().close();
		if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException(command + " did not finish within " + timeoutSeconds + " s; its output:\n"
					+ Files.readString(log, StandardCharsets.UTF_8));
		}
		return process.exitValue();
	}

	private static void deleteRecursively(Path path) throws IOException {
		if (!Files.exists(path)) {
			return;
		}
		try (Stream<Path> all = Files.walk(path)) {
			for (Path each : all.sorted((a, b) -> b.compareTo(a)).toList()) {
				Files.delete(each);
			}
		}
	}

	/**
	 * One check of a scenario.
	 *
	 * @param id the check's id
	 * @param status {@code SUCCESS}, {@code FAILURE}, {@code WARNING}, {@code SKIPPED} or
	 * {@code INFO}
	 * @param errorMessage what went wrong, if anything
	 */
	record Check(String id, String status, String errorMessage) {

		boolean failed() {
			return "FAILURE".equals(this.status);
		}

		// A warning fails a scenario too, as far as the suite's baseline is concerned
		boolean failedOrWarned() {
			return failed() || "WARNING".equals(this.status);
		}

	}

	/**
	 * A run of the suite.
	 *
	 * @param command what was run
	 * @param exitCode the suite's exit code (0: no failure outside the baseline, no
	 * baseline entry passing)
	 * @param output what it printed
	 * @param millis how long it took
	 * @param scenarios each scenario run, with its checks
	 */
	record Run(String command, int exitCode, String output, long millis, Map<String, List<Check>> scenarios) {

		/**
		 * Whether a scenario failed, as the suite judges it against a baseline: a check
		 * of it failed or warned, or it wrote none.
		 * @param scenario the scenario
		 * @return whether it failed
		 */
		boolean failed(String scenario) {
			List<Check> checks = this.scenarios.get(scenario);
			return checks.isEmpty() || checks.stream().anyMatch(Check::failedOrWarned);
		}

	}

}
