package dev.agentmiddleware.benchmarks.load;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * Drives MCP servers with many concurrent clients over Streamable HTTP and compares them
 * in alternating rounds on one machine. Each server is a JVM of its own
 * ({@link LoadServer}), so that the CPU time of its process is the server's alone.
 * <p>
 * Three shapes of client: {@code v2}, the public MCP server benchmark's iteration (each
 * iteration a whole session: {@code initialize}, {@code notifications/initialized},
 * {@code tools/call}, {@code tools/list}, {@code DELETE}), {@code steady} (one session
 * per client, then {@code tools/call} after {@code tools/call}), and {@code stateless}
 * (MCP {@code 2026-07-28}: {@code tools/call} after {@code tools/call} with no session,
 * each request carrying its version and capabilities in {@code _meta} and its
 * {@code Mcp-Method}/{@code Mcp-Name} headers; only our server speaks it, so its anchor
 * is the ungoverned server's {@code steady} shape, and the ungoverned server skips it).
 * Every {@code tools/call} calls {@code echo} with text no other call sends, so the
 * governed server's cache never answers. Clients are closed-loop: each sends its next
 * request when the previous one is answered. A round runs every shape on every server,
 * one after the other (the order of the servers rotates from round to round), each with a
 * warm-up and a measurement phase; only requests both started and answered during the
 * measurement count.
 * <p>
 * Reported per run: HTTP requests per second, their latency percentiles (HdrHistogram,
 * microseconds), errors (a status other than the expected one, a JSON-RPC error or a tool
 * error, an I/O failure), the server process's CPU time per request, the driver's own CPU
 * time and that of everything else on the machine over the measurement, and the load
 * average before and after. Arguments, all optional, as {@code --name=value}:
 * {@code clients} (50), {@code warmup} and {@code measure} (seconds, 10 and 20),
 * {@code rounds} (3), {@code prewarm} (seconds of unmeasured load on every server and
 * shape before the first round, 0), {@code prewarm-clients} (the clients of that load,
 * {@code clients} by default; several, as {@code 4,50}, run the prewarm once with each in
 * turn), {@code shapes} ({@code v2,steady}), {@code servers}
 * ({@code ungoverned,governed,governed-jdbc,governed-pg-rate-limit}; also
 * {@code governed-redis-rate-limit}, with a {@code redis-server} the driver starts:
 * option {@code redis-server}, the command, {@code redis-server} by default),
 * {@code server-java} (the driver's own), {@code server-heap} ({@code 512m}), {@code jfr}
 * (the names of servers to record with Flight Recorder), {@code postgres-url},
 * {@code postgres-user}, {@code postgres-password}, {@code out} (a Markdown file for the
 * tables).
 */
public final class LoadDriver {

	static final String PROTOCOL_VERSION = "2025-11-25";

	static final String STATELESS_PROTOCOL_VERSION = "2026-07-28";

	static final String STATELESS = "stateless";

	private static final Pattern NEGOTIATED_VERSION = Pattern.compile("\"protocolVersion\"\\s*:\\s*\"([^\"]+)\"");

	private static final int WARMING = 0;

	private static final int MEASURING = 1;

	private static final int STOPPED = 2;

	private final Map<String, String> options;

	private final List<Server> servers = new ArrayList<>();

	private final List<String> schemas = new ArrayList<>();

	private @Nullable Process redis;

	private int redisPort;

	private final HttpClient http;

	private LoadDriver(Map<String, String> options) {
		this.options = options;
		this.http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.build();
	}

	/**
	 * Runs the comparison and prints its tables.
	 * @param args options as {@code --name=value}
	 * @throws Exception if a server does not start or the run fails
	 */
	public static void main(String[] args) throws Exception {
		Map<String, String> options = new LinkedHashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			if (!arg.startsWith("--") || equals < 0) {
				throw new IllegalArgumentException("Expected --name=value, got " + arg);
			}
			options.put(arg.substring(2, equals), arg.substring(equals + 1));
		}
		LoadDriver driver = new LoadDriver(options);
		try {
			driver.run();
		}
		finally {
			driver.close();
		}
	}

	private String option(String name, String defaultValue) {
		return this.options.getOrDefault(name, defaultValue);
	}

	private void run() throws Exception {
		int clients = Integer.parseInt(option("clients", "50"));
		int warmup = Integer.parseInt(option("warmup", "10"));
		int measure = Integer.parseInt(option("measure", "20"));
		int rounds = Integer.parseInt(option("rounds", "3"));
		List<String> shapes = Arrays.asList(option("shapes", "v2,steady").split(","));
		List<String> names = Arrays
			.asList(option("servers", "ungoverned,governed,governed-jdbc,governed-pg-rate-limit").split(","));
		String started = Instant.now().toString();
		String loadBefore = loadAverage();
		for (String name : names) {
			this.servers.add(start(name));
		}
		for (Server server : this.servers) {
			server.awaitReady(this);
		}
		System.out.printf(Locale.ROOT, "%d clients (%s), %d s warm-up, %d s measured, %d rounds%n", clients,
				clientThreads(), warmup, measure, rounds);
		// Before the first round, every shape on every server unmeasured: on a loaded
		// machine the JIT needs more
		// than one warm-up phase, and the first server of a round would otherwise be
		// measured colder than the rest
		int prewarm = Integer.parseInt(option("prewarm", "0"));
		// In stages of clients (prewarm-clients=4,50: each shape on each server first at
		// 4 clients, then at 50). At 50 clients on two cores the JIT's compiler threads
		// get
		// a small share of the CPU and are still compiling minutes later; a few clients
		// leave them the cores to compile the common paths, and the last stage compiles
		// the paths that only contention takes.
		List<Integer> prewarmClients = Arrays.stream(option("prewarm-clients", Integer.toString(clients)).split(","))
			.map(Integer::parseInt)
			.toList();
		if (prewarm > 0) {
			for (String shape : shapes) {
				for (Server server : this.servers) {
					if (!speaks(server, shape)) {
						continue;
					}
					for (int stage : prewarmClients) {
						Result result = drive(server, shape, 0, stage, prewarm, 1);
						System.out.println("prewarm (" + stage + " clients) " + result.line());
					}
				}
			}
		}
		List<Result> results = new ArrayList<>();
		for (int round = 1; round <= rounds; round++) {
			for (String shape : shapes) {
				for (int i = 0; i < this.servers.size(); i++) {
					Server server = this.servers.get((i + round - 1) % this.servers.size());
					if (!speaks(server, shape)) {
						continue;
					}
					Result result = drive(server, shape, round, clients, warmup, measure);
					System.out.println(result.line());
					results.add(result);
				}
			}
		}
		String report = new LoadReport(results, names, shapes).markdown(
				String.join(" ",
						this.options.entrySet()
							.stream()
							.map((entry) -> "--" + entry.getKey() + "=" + entry.getValue())
							.toList()),
				started, loadBefore, loadAverage(), clients, clientThreads(), warmup, measure, rounds,
				Runtime.version().toString(), this.servers.get(0).javaVersion);
		System.out.println();
		System.out.println(report);
		String out = this.options.get("out");
		if (out != null) {
			Files.writeString(Path.of(out), report);
		}
	}

	private Server start(String name) throws IOException, SQLException {
		List<String> arguments = new ArrayList<>();
		switch (name) {
			case "ungoverned" -> arguments.add("ungoverned");
			case "governed" -> arguments.add("governed");
			case "governed-jdbc" -> {
				arguments.add("governed");
				arguments.addAll(postgres());
				arguments.add("--agent.middleware.mcp.sessions.store.type=jdbc");
				// MCP sessions in the database need the key of 2026-07-28 requestStates
				arguments.add("--agent.middleware.mcp.request-state.secret=" + java.util.Base64.getEncoder()
					.encodeToString(
							"load-driver-request-state-key-32".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
				arguments.add("--agent.middleware.rate-limit.store.type=memory");
			}
			case "governed-pg-rate-limit" -> {
				arguments.add("governed");
				arguments.addAll(postgres());
				arguments.add("--agent.middleware.mcp.sessions.store.type=memory");
				arguments.add("--agent.middleware.rate-limit.store.type=jdbc");
			}
			case "governed-redis-rate-limit" -> {
				arguments.add("governed");
				arguments.add("--agent.middleware.rate-limit.store.type=redis");
				arguments.add("--spring.data.redis.host=127.0.0.1");
				arguments.add("--spring.data.redis.port=" + redis());
				arguments.add("--agent.middleware.mcp.sessions.store.type=memory");
			}
			default -> throw new IllegalArgumentException("Unknown server " + name);
		}
		int port = freePort();
		arguments.add(1, Integer.toString(port));
		String java = option("server-java",
				ProcessHandle.current().info().command().orElseThrow(() -> new IllegalStateException("no java")));
		String heap = option("server-heap", "512m");
		List<String> command = new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap));
		if (Arrays.asList(option("jfr", "").split(",")).contains(name)) {
			command.add("-XX:StartFlightRecording=filename=load-" + name + ".jfr,settings=profile,dumponexit=true");
		}
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), LoadServer.class.getName()));
		command.addAll(arguments);
		Path log = Path.of("load-" + name + ".log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		return new Server(name, port, process, log, java);
	}

	// A Redis of the run's own (redis-server on a free port, nothing saved), started once
	private int redis() throws IOException {
		if (this.redis == null) {
			int port = freePort();
			this.redis = new ProcessBuilder(option("redis-server", "redis-server"), "--port", Integer.toString(port),
					"--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
				.redirectErrorStream(true)
				.redirectOutput(Path.of("load-redis.log").toFile())
				.start();
			this.redisPort = port;
		}
		return this.redisPort;
	}

	// The stores under test on PostgreSQL, in a fresh schema; the others stay in memory
	private List<String> postgres() throws SQLException {
		String url = option("postgres-url", "jdbc:postgresql://127.0.0.1:5432/agentmw");
		String user = option("postgres-user", "agentmw");
		String password = option("postgres-password", "agentmw");
		String schema = "load_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
		try (Connection connection = DriverManager.getConnection(url, user, password);
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE SCHEMA " + schema);
		}
		this.schemas.add(schema);
		return List.of("--spring.datasource.url=" + url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema,
				"--spring.datasource.username=" + user, "--spring.datasource.password=" + password,
				"--agent.middleware.approval.store.type=memory", "--agent.middleware.threads.store.type=memory",
				"--agent.middleware.cache.store.type=memory");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private Result drive(Server server, String shape, int round, int clients, int warmup, int measure)
			throws Exception {
		Phase phase = new Phase();
		List<Client> workers = new ArrayList<>();
		for (int i = 0; i < clients; i++) {
			workers.add(new Client(this, server, shape, phase, "c" + round + "-" + i));
		}
		String loadBefore = loadAverage();
		List<Future<?>> running = new ArrayList<>();
		ExecutorService executor = clientExecutor(clients);
		try {
			for (Client worker : workers) {
				running.add(executor.submit(worker));
			}
			TimeUnit.SECONDS.sleep(warmup);
			long jit = server.jitNanos();
			long serverCpu = server.cpuNanos();
			long driverCpu = driverCpuNanos();
			long machineBusy = machineBusyNanos();
			long start = System.nanoTime();
			phase.value = MEASURING;
			TimeUnit.SECONDS.sleep(measure);
			phase.value = STOPPED;
			long elapsed = System.nanoTime() - start;
			long serverCpuUsed = server.cpuNanos() - serverCpu;
			long driverCpuUsed = driverCpuNanos() - driverCpu;
			long machineBusyUsed = machineBusyNanos() - machineBusy;
			long jitUsed = server.jitNanos() - jit;
			for (Future<?> future : running) {
				future.get(60, TimeUnit.SECONDS);
			}
			Histogram all = new Histogram(3_600_000_000L, 3);
			Histogram calls = new Histogram(3_600_000_000L, 3);
			long errors = 0;
			String firstError = null;
			for (Client worker : workers) {
				all.add(worker.all);
				calls.add(worker.calls);
				errors += worker.errors;
				if (firstError == null) {
					firstError = worker.firstError;
				}
			}
			return new Result(server.name, shape, round, all, calls, errors, firstError, elapsed, serverCpuUsed,
					driverCpuUsed, machineBusyUsed - serverCpuUsed - driverCpuUsed, jitUsed, loadBefore, loadAverage());
		}
		finally {
			phase.value = STOPPED;
			executor.shutdownNow();
		}
	}

	// Virtual threads where the JDK has them (21+, looked up so that the module still
	// compiles for Java 17), else one
	// platform thread per client
	private static ExecutorService clientExecutor(int clients) {
		try {
			return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
		}
		catch (ReflectiveOperationException ex) {
			return Executors.newFixedThreadPool(clients);
		}
	}

	private static String clientThreads() {
		try {
			Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
			return "virtual threads, JDK " + Runtime.version().feature();
		}
		catch (NoSuchMethodException ex) {
			return "one platform thread each, JDK " + Runtime.version().feature();
		}
	}

	private static long driverCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	// Busy time of every core of the machine from /proc/stat (user, nice, system, irq,
	// softirq, steal), 0 elsewhere
	private static long machineBusyNanos() {
		try {
			String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
			long ticks = 0;
			for (int i : new int[] { 1, 2, 3, 6, 7, 8 }) {
				ticks += Long.parseLong(fields[i]);
			}
			return ticks * 10_000_000L; // USER_HZ is 100 on Linux
		}
		catch (IOException | RuntimeException ex) {
			return 0;
		}
	}

	private static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException ex) {
			return "n/a";
		}
	}

	HttpResponse<String> post(Server server, @Nullable String session, String body)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(server.endpoint)
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
		if (session != null) {
			request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", PROTOCOL_VERSION);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	// Spring AI's server speaks 2025-11-25 only
	private static boolean speaks(Server server, String shape) {
		return !(STATELESS.equals(shape) && server.name.equals("ungoverned"));
	}

	HttpResponse<String> postStateless(Server server, String body, String toolName)
			throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(server.endpoint)
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", STATELESS_PROTOCOL_VERSION)
			.header("Mcp-Method", "tools/call")
			.header("Mcp-Name", toolName)
			.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<String> delete(Server server, String session) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(server.endpoint)
			.timeout(Duration.ofSeconds(30))
			.header("Mcp-Session-Id", session)
			.header("MCP-Protocol-Version", PROTOCOL_VERSION)
			.DELETE()
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	static String initialize(int id, String clientName) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
				+ PROTOCOL_VERSION + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"" + clientName
				+ "\",\"version\":\"1.0.0\"}}}";
	}

	private void close() {
		for (Server server : this.servers) {
			server.process.destroy();
		}
		for (Server server : this.servers) {
			try {
				server.process.waitFor(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			server.process.destroyForcibly();
		}
		if (this.redis != null) {
			this.redis.destroy();
		}
		if (this.schemas.isEmpty()) {
			return;
		}
		try (Connection connection = DriverManager.getConnection(
				option("postgres-url", "jdbc:postgresql://127.0.0.1:5432/agentmw"), option("postgres-user", "agentmw"),
				option("postgres-password", "agentmw")); Statement statement = connection.createStatement()) {
			for (String schema : this.schemas) {
				statement.execute("DROP SCHEMA " + schema + " CASCADE");
			}
		}
		catch (SQLException ex) {
			System.err.println("Could not drop the schemas " + this.schemas + ": " + ex);
		}
	}

	private static final class Phase {

		volatile int value = WARMING;

	}

	/**
	 * A server process under test.
	 */
	static final class Server {

		final String name;

		final URI endpoint;

		final Process process;

		final Path log;

		String javaVersion = "?";

		private final String java;

		Server(String name, int port, Process process, Path log, String java) {
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
					throw new IllegalStateException(this.name + " exited; see " + this.log.toAbsolutePath() + ":\n"
							+ Files.readString(this.log));
				}
				try {
					HttpResponse<String> response = driver.post(this, null, initialize(1, "ready-check"));
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

	/**
	 * One concurrent client: its own session or sessions, its own histograms.
	 */
	static final class Client implements Runnable {

		final Histogram all = new Histogram(3_600_000_000L, 3);

		final Histogram calls = new Histogram(3_600_000_000L, 3);

		long errors;

		@Nullable String firstError;

		private final LoadDriver driver;

		private final Server server;

		private final String shape;

		private final Phase phase;

		private final String name;

		private int id;

		private long next;

		private @Nullable String session;

		Client(LoadDriver driver, Server server, String shape, Phase phase, String name) {
			this.driver = driver;
			this.server = server;
			this.shape = shape;
			this.phase = phase;
			this.name = name;
		}

		@Override
		public void run() {
			while (this.phase.value != STOPPED) {
				try {
					if ("v2".equals(this.shape)) {
						iteration();
					}
					else if (STATELESS.equals(this.shape)) {
						statelessCall();
					}
					else {
						steadyCall();
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
				catch (Failure ex) {
					// counted where it happened; the next iteration starts over
				}
			}
			if (this.session != null) {
				try {
					this.driver.delete(this.server, this.session);
				}
				catch (IOException | InterruptedException ex) {
					// the server forgets the session when it idles out
				}
			}
		}

		// The public benchmark's iteration: a whole session, one call, the tool list
		private void iteration() throws InterruptedException, Failure {
			try {
				open();
				call();
				timed(false, 200, "tools/list",
						() -> this.driver.post(this.server, this.session,
								"{\"jsonrpc\":\"2.0\",\"id\":" + (++this.id) + ",\"method\":\"tools/list\"}"),
						"\"echo\"");
			}
			finally {
				if (this.session != null) {
					String closing = this.session;
					this.session = null;
					timed(false, 200, "DELETE", () -> this.driver.delete(this.server, closing), null);
				}
			}
		}

		private void steadyCall() throws InterruptedException, Failure {
			if (this.session == null) {
				open();
			}
			try {
				call();
			}
			catch (Failure ex) {
				this.session = null;
				throw ex;
			}
		}

		// 2026-07-28: no session; the request says who its client is
		private void statelessCall() throws InterruptedException, Failure {
			String text = "hello " + this.name + "-" + (this.next++);
			timed(true, 200, "tools/call",
					() -> this.driver.postStateless(this.server, "{\"jsonrpc\":\"2.0\",\"id\":" + (++this.id)
							+ ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\""
							+ text + "\"},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\""
							+ STATELESS_PROTOCOL_VERSION + "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
							+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"" + this.name
							+ "\",\"version\":\"1.0.0\"}}}}", "echo"),
					text);
		}

		private void open() throws InterruptedException, Failure {
			this.id = 0;
			HttpResponse<String> response = timed(false, 200, "initialize",
					() -> this.driver.post(this.server, null, initialize(++this.id, this.name)), "\"result\"");
			String session = response.headers().firstValue("Mcp-Session-Id").orElse(null);
			if (session == null) {
				throw fail("initialize: no Mcp-Session-Id");
			}
			Matcher version = NEGOTIATED_VERSION.matcher(response.body());
			if (!version.find() || !PROTOCOL_VERSION.equals(version.group(1))) {
				throw fail("initialize: protocol version not " + PROTOCOL_VERSION + ": " + response.body());
			}
			this.session = session;
			timed(false, 202, "notifications/initialized", () -> this.driver.post(this.server, session,
					"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), null);
		}

		private void call() throws InterruptedException, Failure {
			String text = "hello " + this.name + "-" + (this.next++);
			timed(true, 200, "tools/call",
					() -> this.driver.post(this.server, this.session, "{\"jsonrpc\":\"2.0\",\"id\":" + (++this.id)
							+ ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\""
							+ text + "\"}}}"),
					text);
		}

		private HttpResponse<String> timed(boolean call, int expectedStatus, String what, Request request,
				@Nullable String expectedText) throws InterruptedException, Failure {
			boolean measured = this.phase.value == MEASURING;
			long start = System.nanoTime();
			HttpResponse<String> response;
			String error = null;
			try {
				response = request.send();
				int status = response.statusCode();
				boolean statusOk = (expectedStatus == 200) ? (status == 200 || (what.equals("DELETE") && status == 204))
						: (status == expectedStatus || status == 200);
				if (!statusOk) {
					error = what + ": status " + status + " " + abbreviate(response.body());
				}
				else if (response.body().contains("\"error\":{") || response.body().contains("\"isError\":true")
						|| (expectedText != null && !response.body().contains(expectedText))) {
					error = what + ": " + abbreviate(response.body());
				}
			}
			catch (IOException ex) {
				response = null;
				error = what + ": " + ex;
			}
			long micros = (System.nanoTime() - start) / 1000;
			measured = measured && this.phase.value == MEASURING;
			if (measured) {
				this.all.recordValue(Math.max(1, micros));
				if (call) {
					this.calls.recordValue(Math.max(1, micros));
				}
			}
			if (error != null) {
				if (measured) {
					this.errors++;
				}
				if (this.firstError == null) {
					this.firstError = error;
				}
				throw new Failure();
			}
			return response;
		}

		private static String abbreviate(String body) {
			return (body.length() > 300) ? body.substring(0, 300) + "…" : body;
		}

		private Failure fail(String error) {
			if (this.phase.value == MEASURING) {
				this.errors++;
			}
			if (this.firstError == null) {
				this.firstError = error;
			}
			return new Failure();
		}

	}

	@FunctionalInterface
	interface Request {

		HttpResponse<String> send() throws IOException, InterruptedException;

	}

	/**
	 * A request that failed, already counted.
	 */
	static final class Failure extends Exception {

		Failure() {
			super(null, null, false, false);
		}

	}

	/**
	 * One server, one shape, one round.
	 */
	record Result(String server, String shape, int round, Histogram all, Histogram calls, long errors,
			@Nullable String firstError, long elapsedNanos, long serverCpuNanos, long driverCpuNanos,
			long otherCpuNanos, long jitNanos, String loadBefore, String loadAfter) {

		double requestsPerSecond() {
			return this.all.getTotalCount() * 1e9 / this.elapsedNanos;
		}

		double cpuMicrosPerRequest() {
			return (this.all.getTotalCount() == 0) ? 0 : this.serverCpuNanos / 1000.0 / this.all.getTotalCount();
		}

		// The JIT's compile time during the measurement, or "?" when it could not be read
		String jit() {
			return (this.jitNanos < 0) ? "?" : String.format(Locale.ROOT, "%,d ms", this.jitNanos / 1_000_000);
		}

		double cores(long nanos) {
			return (double) nanos / this.elapsedNanos;
		}

		String line() {
			return String.format(Locale.ROOT,
					"round %d %-7s %-23s %8.0f req/s  p50 %6d  p90 %6d  p99 %7d  max %7d us  errors %d  "
							+ "server CPU %.1f us/req (%.2f cores)  driver %.2f cores  others %.2f cores  JIT %s  load %s -> %s%s",
					this.round, this.shape, this.server, requestsPerSecond(), this.all.getValueAtPercentile(50),
					this.all.getValueAtPercentile(90), this.all.getValueAtPercentile(99), this.all.getMaxValue(),
					this.errors, cpuMicrosPerRequest(), cores(this.serverCpuNanos), cores(this.driverCpuNanos),
					cores(this.otherCpuNanos), jit(), this.loadBefore, this.loadAfter,
					(this.firstError != null) ? "  first error: " + this.firstError : "");
		}

	}

}
