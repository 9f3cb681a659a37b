package dev.agentmiddleware.benchmarks.load;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
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
 * option {@code redis-server}, the command, {@code redis-server} by default; and
 * {@code governed-no-priming}, {@code governed} without the priming event of
 * {@code 2025-11-25} streams; {@code governed-priming-at-once}, {@code governed} sending
 * every request's priming event in a write of its own), {@code server-java} (the driver's
 * own), {@code server-heap} ({@code 512m}), {@code jfr} (the names of servers to record
 * with Flight Recorder), {@code postgres-url}, {@code postgres-user},
 * {@code postgres-password}, {@code out} (a Markdown file for the tables).
 */
public final class LoadDriver {

	static final String PROTOCOL_VERSION = "2025-11-25";

	static final String STATELESS_PROTOCOL_VERSION = "2026-07-28";

	static final String STATELESS = "stateless";

	static final Pattern NEGOTIATED_VERSION = Pattern.compile("\"protocolVersion\"\\s*:\\s*\"([^\"]+)\"");

	static final int WARMING = 0;

	static final int MEASURING = 1;

	static final int STOPPED = 2;

	private final Map<String, String> options;

	private final List<ServerProcess> servers = new ArrayList<>();

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
		for (ServerProcess server : this.servers) {
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
				for (ServerProcess server : this.servers) {
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
					ServerProcess server = this.servers.get((i + round - 1) % this.servers.size());
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

	private ServerProcess start(String name) throws IOException, SQLException {
		List<String> arguments = new ArrayList<>();
		switch (name) {
			case "ungoverned" -> arguments.add("ungoverned");
			case "governed" -> arguments.add("governed");
			case "governed-no-priming" -> {
				// What the priming event of every 2025-11-25 stream costs: none is sent
				arguments.add("governed");
				arguments.add("--agent.middleware.mcp.transport.sse-retry=0s");
			}
			case "governed-priming-at-once" -> {
				// Every request's priming event sent in a write of its own, as before the
				// priming hold
				arguments.add("governed");
				arguments.add("--agent.middleware.mcp.transport.priming-hold=0s");
			}
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
		return new ServerProcess(name, port, process, log, java);
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

	private Result drive(ServerProcess server, String shape, int round, int clients, int warmup, int measure)
			throws Exception {
		LoadClient.Phase phase = new LoadClient.Phase();
		List<LoadClient> workers = new ArrayList<>();
		for (int i = 0; i < clients; i++) {
			workers.add(new LoadClient(this, server, shape, phase, "c" + round + "-" + i));
		}
		String loadBefore = loadAverage();
		List<Future<?>> running = new ArrayList<>();
		ExecutorService executor = clientExecutor(clients);
		try {
			for (LoadClient worker : workers) {
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
			for (LoadClient worker : workers) {
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

	HttpResponse<String> post(ServerProcess server, @Nullable String session, String body)
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
	private static boolean speaks(ServerProcess server, String shape) {
		return !(STATELESS.equals(shape) && server.name.equals("ungoverned"));
	}

	HttpResponse<String> postStateless(ServerProcess server, String body, String toolName)
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

	HttpResponse<String> delete(ServerProcess server, String session) throws IOException, InterruptedException {
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
		for (ServerProcess server : this.servers) {
			server.process.destroy();
		}
		for (ServerProcess server : this.servers) {
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
