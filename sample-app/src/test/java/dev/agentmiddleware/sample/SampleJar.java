package dev.agentmiddleware.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's executable jar ({@code sample-app-*-exec.jar}, built by {@code package}),
 * started as a user starts it: {@code java -jar} in a working directory of its own, with
 * command-line arguments only, on a free port. Its standard output and error go to
 * {@code app.log} in that directory. {@link #stop()} sends SIGTERM, as {@code kill <pid>}
 * does, and waits for the process to end. <pre>{@code
 * try (SampleJar app = SampleJar.start(workingDirectory, "--sample.workspace.root=" + workspace)) {
 *     McpHttpSession session = McpHttpSession.initialize(app.port());
 *     ...
 * }
 * }</pre>
 */
final class SampleJar implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofMinutes(2);

	private final Process process;

	private final int port;

	private final Path log;

	private SampleJar(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/**
	 * The executable jar the build made: the {@code sample.jar} system property that
	 * failsafe sets.
	 * @return the jar
	 */
	static Path jar() {
		String jar = System.getProperty("sample.jar");
		assertThat(jar).as("system property sample.jar (set by failsafe in sample-app/pom.xml)").isNotNull();
		Path path = Path.of(jar);
		assertThat(path).as("the executable jar; run 'package' first").exists();
		return path;
	}

	/**
	 * Starts the jar and waits until it serves {@code /mcp}.
	 * @param workingDirectory the process's working directory (the sample's H2 database
	 * is {@code ./workspace/data})
	 * @param arguments command-line arguments after {@code --server.port}
	 * @return the running app
	 */
	static SampleJar start(Path workingDirectory, String... arguments) throws IOException {
		int port = freePort();
		List<String> command = new ArrayList<>(List.of(javaExecutable(), "-Xmx512m", "-XX:TieredStopAtLevel=1", "-jar",
				jar().toString(), "--server.port=" + port));
		command.addAll(List.of(arguments));
		Files.createDirectories(workingDirectory);
		Path log = workingDirectory.resolve("app-" + port + ".log");
		Process process = new ProcessBuilder(command).directory(workingDirectory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		SampleJar app = new SampleJar(process, port, log);
		try {
			app.awaitServing();
		}
		catch (RuntimeException | AssertionError ex) {
			app.close();
			throw new AssertionError("The sample jar did not start; its log:\n" + app.log(), ex);
		}
		return app;
	}

	private void awaitServing() {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		await().atMost(STARTUP).pollInterval(Duration.ofMillis(250)).until(() -> {
			if (!this.process.isAlive()) {
				throw new AssertionError("exited with " + this.process.exitValue());
			}
			try {
				http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/health"))
					.build(), HttpResponse.BodyHandlers.discarding());
				return true;
			}
			catch (IOException ex) {
				return false;
			}
		});
	}

	int port() {
		return this.port;
	}

	/**
	 * What the process wrote so far.
	 * @return its standard output and error
	 */
	String log() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

	/**
	 * Sends SIGTERM and waits for the process to end, as an operator's {@code kill <pid>}
	 * would.
	 * @return the exit code
	 */
	int stop() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(60, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor();
			throw new AssertionError("The sample jar did not stop within 60 s of SIGTERM; its log:\n" + log());
		}
		return this.process.exitValue();
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
			try {
				this.process.waitFor(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static String javaExecutable() {
		return ProcessHandle.current().info().command().orElse("java");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
