package dev.agentmiddleware.benchmarks.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A server process under test, started by {@link LoadDriver}: its readiness, its CPU time
 * and its JIT compile time.
 */
final class ServerProcess {

	final String name;

	final URI endpoint;

	final Process process;

	final Path log;

	String javaVersion = "?";

	private final String java;

	ServerProcess(String name, int port, Process process, Path log, String java) {
		this.name = name;
		this.endpoint = URI.create("http://127.0.0.1:" + port + "/mcp");
		this.process = process;
		this.log = log;
		this.java = java;
	}

	void awaitReady(LoadDriver driver) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
		while (true) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(
						this.name + " exited; see " + this.log.toAbsolutePath() + ":\n" + Files.readString(this.log));
			}
			try {
				HttpResponse<String> response = driver.post(this, null, LoadDriver.initialize(1, "ready-check"));
				String session = response.headers().firstValue("Mcp-Session-Id").orElse(null);
				if (response.statusCode() == 200 && session != null) {
					driver.delete(this, session);
					break;
				}
				throw new IllegalStateException(
						this.name + " answered initialize with " + response.statusCode() + ": " + response.body());
			}
			catch (IOException ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
				TimeUnit.MILLISECONDS.sleep(500);
			}
		}
		Process version = new ProcessBuilder(this.java, "-version").redirectErrorStream(true).start();
		String text = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		version.waitFor();
		this.javaVersion = text.lines().filter((line) -> line.contains("Runtime")).findFirst().orElse(text.trim());
		System.out.println(this.name + " ready at " + this.endpoint + " (pid " + this.process.pid() + ")");
	}

	long cpuNanos() {
		return this.process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
	}

	// The time the server's JIT compilers have spent compiling (HotSpot's counter
	// java.ci.totalTime, read with the
	// jcmd beside the server's java; read outside the measured window, so jcmd's own
	// CPU is not counted), -1 when
	// it cannot be read
	long jitNanos() {
		Path jcmd = Path.of(this.java).resolveSibling("jcmd");
		if (!Files.isExecutable(jcmd)) {
			return -1;
		}
		try {
			Process process = new ProcessBuilder(jcmd.toString(), Long.toString(this.process.pid()),
					"PerfCounter.print")
				.redirectErrorStream(true)
				.start();
			String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			process.waitFor();
			long ticks = counter(text, "java.ci.totalTime");
			long frequency = counter(text, "sun.os.hrt.frequency");
			return (ticks < 0 || frequency <= 0) ? -1 : (long) (ticks * (1e9 / frequency));
		}
		catch (IOException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	private static long counter(String text, String name) {
		return text.lines()
			.filter((line) -> line.startsWith(name + "="))
			.map((line) -> Long.parseLong(line.substring(name.length() + 1).trim()))
			.findFirst()
			.orElse(-1L);
	}

}
