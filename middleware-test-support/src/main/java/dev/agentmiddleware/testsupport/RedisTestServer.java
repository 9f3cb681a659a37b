package dev.agentmiddleware.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A {@code redis-server} of its own on a free loopback port, without persistence, so that
 * test classes and concurrent builds never see each other's keys. It can be stopped and
 * started again on the same port, to show what a client does while Redis is down. Use it
 * from a test marked {@code @RequiresService(TestService.REDIS)}: <pre>{@code
 * try (RedisTestServer redis = RedisTestServer.start()) {
 *     RedisClient client = RedisClient.create(redis.uri());
 *     ...
 * }
 * }</pre>
 */
public final class RedisTestServer implements AutoCloseable {

	private static final long READY_TIMEOUT_MILLIS = 20_000;

	private final int port;

	private @Nullable Process process;

	private RedisTestServer(int port) {
		this.port = port;
	}

	/**
	 * Starts a server on a free port and waits until it answers {@code PING}.
	 * @return the running server; closing it stops the server
	 */
	public static RedisTestServer start() {
		IllegalStateException failure = null;
		// Another process may take the free port before the server binds it: then try
		// another
		for (int attempt = 0; attempt < 3; attempt++) {
			RedisTestServer server = new RedisTestServer(freePort());
			try {
				server.restart();
				return server;
			}
			catch (IllegalStateException ex) {
				failure = ex;
			}
		}
		throw failure;
	}

	/**
	 * The server's port on 127.0.0.1.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * The server's address as a Redis URI, such as {@code redis://127.0.0.1:6390}.
	 * @return the URI
	 */
	public String uri() {
		return "redis://127.0.0.1:" + this.port;
	}

	/**
	 * Stops the server (its keys are gone); clients then fail to connect until
	 * {@link #restart()}.
	 */
	public synchronized void stop() {
		Process running = this.process;
		this.process = null;
		if (running != null) {
			running.destroy();
			try {
				if (!running.waitFor(10, TimeUnit.SECONDS)) {
					running.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				running.destroyForcibly();
			}
		}
	}

	/**
	 * Starts the server again on the same port, empty, and waits until it answers
	 * {@code PING}.
	 */
	public synchronized void restart() {
		if (this.process != null) {
			return;
		}
		List<String> command = List.of(TestService.redisServer().toString(), "--port", String.valueOf(this.port),
				"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel",
				"warning");
		try {
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start " + command.get(0) + ": " + ex.getMessage(), ex);
		}
		awaitPong();
	}

	private void awaitPong() {
		long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
		IOException last = null;
		while (System.currentTimeMillis() < deadline) {
			Process running = this.process;
			if (running == null || !running.isAlive()) {
				throw new IllegalStateException("redis-server on port " + this.port + " exited at startup");
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", this.port), 1000);
				socket.setSoTimeout(1000);
				OutputStream out = socket.getOutputStream();
				out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
				out.flush();
				InputStream in = socket.getInputStream();
				byte[] reply = in.readNBytes(7);
				if (new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n")) {
					return;
				}
			}
			catch (IOException ex) {
				last = ex;
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for redis-server", ex);
			}
		}
		stop();
		throw new IllegalStateException("redis-server on port " + this.port + " did not answer PING within "
				+ READY_TIMEOUT_MILLIS + " ms" + ((last != null) ? ": " + last.getMessage() : ""));
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException("No free port: " + ex.getMessage(), ex);
		}
	}

	@Override
	public void close() {
		stop();
	}

}
