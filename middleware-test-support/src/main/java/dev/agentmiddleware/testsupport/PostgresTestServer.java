package dev.agentmiddleware.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of its own ({@code initdb} and {@code pg_ctl} from
 * {@link TestService#postgresBinaries()}), in a temporary directory, on a free loopback
 * port, with its socket in that directory: it never touches the shared server on 5432,
 * and it can be stopped and started again with its data, to show what a client does while
 * the database is down. As root it runs as the {@code postgres} user ({@code runuser}),
 * as {@code initdb} refuses root. Use it from a test marked
 * {@code @RequiresService(TestService.POSTGRES_SERVER)}: <pre>{@code
 * try (PostgresTestServer postgres = PostgresTestServer.start()) {
 *     DataSource dataSource = new SimpleDriverDataSource(new Driver(), postgres.jdbcUrl(), postgres.username(), "");
 *     postgres.stop();
 *     postgres.restart();
 * }
 * }</pre>
 */
public final class PostgresTestServer implements AutoCloseable {

	private static final String USER = "agentmw";

	private final Path directory;

	private final int port;

	private boolean running;

	private PostgresTestServer(Path directory, int port) {
		this.directory = directory;
		this.port = port;
	}

	/**
	 * Creates a database cluster in a temporary directory and starts its server on a free
	 * port, waiting until it accepts connections.
	 * @return the running server; closing it stops the server and deletes its directory
	 */
	public static PostgresTestServer start() {
		Path directory;
		try {
			directory = Files.createTempDirectory("agentmw-postgres-");
			// initdb and the server run as postgres when we are root: let them create the
			// data directory, the socket and the log here
			Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create a directory for PostgreSQL", ex);
		}
		PostgresTestServer server = new PostgresTestServer(directory, freePort());
		try {
			server.run("initdb", "-D", server.data().toString(), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync");
			server.restart();
			return server;
		}
		catch (RuntimeException ex) {
			server.close();
			throw ex;
		}
	}

	/**
	 * The server's JDBC URL, such as {@code jdbc:postgresql://127.0.0.1:40123/postgres}
	 * (short connect and login timeouts, so that a client notices a stopped server at
	 * once).
	 * @return the URL
	 */
	public String jdbcUrl() {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/postgres?connectTimeout=2&loginTimeout=5";
	}

	/**
	 * The user to connect as, without a password.
	 * @return the user name
	 */
	public String username() {
		return USER;
	}

	/**
	 * The server's port on 127.0.0.1.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Stops the server at once ({@code pg_ctl stop -m fast}: open connections are
	 * closed); its data stays for {@link #restart()}.
	 */
	public synchronized void stop() {
		if (this.running) {
			this.running = false;
			run("pg_ctl", "-D", data().toString(), "-m", "fast", "-w", "stop");
		}
	}

	/**
	 * Starts the server again, with its data, on the same port, and waits until it
	 * accepts connections.
	 */
	public synchronized void restart() {
		if (this.running) {
			return;
		}
		run("pg_ctl", "-D", data().toString(), "-l", this.directory.resolve("server.log").toString(), "-w", "-t", "30",
				"-o", "-p " + this.port + " -k " + this.directory + " -c listen_addresses=127.0.0.1 -c fsync=off",
				"start");
		this.running = true;
	}

	@Override
	public void close() {
		try {
			stop();
		}
		finally {
			try (Stream<Path> files = Files.walk(this.directory)) {
				files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
			catch (IOException ex) {
				// A leftover temporary directory is no failure of the test
			}
		}
	}

	private Path data() {
		return this.directory.resolve("data");
	}

	private void run(String program, String... arguments) {
		List<String> command = new ArrayList<>();
		if ("root".equals(System.getProperty("user.name"))) {
			command.addAll(List.of("runuser", "-u", "postgres", "--"));
		}
		command.add(TestService.postgresBinaries().resolve(program).toString());
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).directory(this.directory.toFile())
				.redirectErrorStream(true)
				.start();
			process.getOutputStream().close();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(String.join(" ", command) + " did not finish within 60 s");
			}
			if (process.exitValue() != 0) {
				throw new IllegalStateException(
						String.join(" ", command) + " failed (exit " + process.exitValue() + "): " + output.strip());
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + command + ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + program, ex);
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException("No free port: " + ex.getMessage(), ex);
		}
	}

}
