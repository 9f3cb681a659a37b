package dev.agentmiddleware.benchmarks.report;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads JMH's JSON results and writes, between the markers of the benchmarks README, a
 * table of every benchmark with its allocation, and a table of each target with its ratio
 * against its anchor. <pre>
 * java -cp target/benchmarks.jar dev.agentmiddleware.benchmarks.report.BenchmarkReport results.json README.md "command"
 * </pre>
 */
public final class BenchmarkReport {

	static final String START = "<!-- results:start -->";

	static final String END = "<!-- results:end -->";

	private final Map<String, Result> results = new LinkedHashMap<>();

	private final String jdk;

	private final Properties memory = new Properties();

	private BenchmarkReport(JsonNode root) {
		String jdk = "unknown";
		for (JsonNode run : root) {
			Result result = Result.of(run);
			this.results.put(result.key(), result);
			jdk = run.path("vmName").asString() + " " + run.path("jdkVersion").asString();
		}
		this.jdk = jdk;
	}

	public static void main(String[] args) throws IOException {
		if (args.length < 3) {
			throw new IllegalArgumentException(
					"usage: BenchmarkReport <jmh-results.json> <README.md> <command> [session-memory.properties]");
		}
		BenchmarkReport report = new BenchmarkReport(new JsonMapper().readTree(Path.of(args[0]).toFile()));
		if (args.length > 3 && Files.exists(Path.of(args[3]))) {
			try (Reader in = Files.newBufferedReader(Path.of(args[3]))) {
				report.memory.load(in);
			}
		}
		Path readme = Path.of(args[1]);
		String text = Files.readString(readme);
		int start = text.indexOf(START);
		int end = text.indexOf(END);
		if (start < 0 || end < start) {
			throw new IllegalStateException(readme + " lacks the markers " + START + " and " + END);
		}
		String updated = text.substring(0, start + START.length()) + "\n" + report.render(args[2])
				+ text.substring(end);
		Files.writeString(readme, updated);
	}

	String render(String command) {
		StringBuilder out = new StringBuilder();
		out.append("Command: `").append(command).append("`  \n");
		out.append("JDK: ").append(this.jdk).append("  \n");
		out.append("Date: ").append(LocalDate.now()).append("  \n");
		out.append("Machine: ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" cores, shared and noisy; one fork, so read the ratios, not the absolute values.\n\n");
		out.append("### Targets\n\n");
		out.append("| target | measured | anchor | ratio | goal | met |\n| --- | --- | --- | --- | --- | --- |\n");
		targets(out);
		out.append("\n### Every benchmark\n\n");
		out.append("| benchmark | params | score | error | unit | allocation (B/op) |\n");
		out.append("| --- | --- | ---: | ---: | --- | ---: |\n");
		for (Result result : this.results.values()) {
			String params = result.params();
			if (!Double.isNaN(result.p50())) {
				params = (params.isEmpty() ? "" : params + ", ") + "p50 " + format(result.p50()) + ", p99 "
						+ format(result.p99());
			}
			out.append("| ")
				.append(result.name())
				.append(" | ")
				.append(params)
				.append(" | ")
				.append(format(result.score()))
				.append(" | ± ")
				.append(format(result.error()))
				.append(" | ")
				.append(result.unit())
				.append(" | ")
				.append(format(result.allocation()))
				.append(" |\n");
		}
		return out.toString();
	}

	private void targets(StringBuilder out) {
		for (String typed : List.of("true", "false")) {
			String suffix = typed.equals("true") ? " (result type checked)" : " (result type Object)";
			Result empty = find("PipelineBenchmark.pipeline", "layers=0, typed=" + typed);
			ratio(out, "tool with no applicable middleware" + suffix, empty, find("DirectCallBenchmark.direct", ""),
					1.5, false);
			ratio(out, "empty pipeline, vs the tool's own handler" + suffix, empty,
					find("DirectCallBenchmark.handler", ""), 1.1, false);
			for (String layers : List.of("1", "5", "10")) {
				Result layered = find("PipelineBenchmark.pipeline", "layers=" + layers + ", typed=" + typed);
				if (layered != null && empty != null) {
					int count = Integer.parseInt(layers);
					double perLayer = (layered.score() - empty.score()) / count;
					double allocation = (layered.allocation() - empty.allocation()) / count;
					boolean met = perLayer <= 2.0 && allocation < 1.0;
					out.append("| each pass-through layer, ")
						.append(layers)
						.append(" layers")
						.append(suffix)
						.append(" | ")
						.append(format(perLayer))
						.append(" ns, ")
						.append(format(allocation))
						.append(" B/op per layer | pipeline, 0 layers | – | ≤ 2 ns and 0 B/op | ")
						.append(met ? "yes" : "**no**")
						.append(" |\n");
				}
			}
		}
		ratio(out, "Java path, no applicable middleware", find("JavaPathBenchmark.agentToolProxy", ""),
				find("JavaPathBenchmark.springAopProxy", ""), 1.2, false);
		for (String tool : List.of("echo", "plan_trip")) {
			ratio(out, "JSON path, default stack, cache miss (" + tool + ")",
					find("DefaultStackBenchmark.cacheMiss", "tool=" + tool),
					find("DefaultStackBenchmark.springAiDistinctArguments", "tool=" + tool), 1.0, true);
			ratio(out, "JSON path, cache hit (" + tool + ")", find("DefaultStackBenchmark.cacheHit", "tool=" + tool),
					find("JsonPathBenchmark.springAiMethodToolCallback", "tool=" + tool), 0.2, false);
			ratio(out, "JSON path, no middleware (" + tool + ")",
					find("JsonPathBenchmark.noMiddleware", "tool=" + tool),
					find("JsonPathBenchmark.springAiMethodToolCallback", "tool=" + tool), Double.NaN, false);
		}
		Result one = find("DefaultStackThroughputBenchmark.oneThread", "");
		Result two = find("DefaultStackThroughputBenchmark.twoThreads", "");
		Result four = find("DefaultStackThroughputBenchmark.fourThreads", "");
		scaling(out, "default stack, 2 threads vs 1 (throughput)", two, one, 1.8);
		scaling(out,
				"default stack, 4 threads vs 1 (throughput, " + Runtime.getRuntime().availableProcessors() + " cores)",
				four, one, Double.NaN);
		scaling(out,
				"our own layers (observer tier, call context, logging, retry, binding, result check), 2 threads vs 1",
				find("OwnChainScalingBenchmark.twoThreads", ""), find("OwnChainScalingBenchmark.oneThread", ""), 1.8);
		Result governed = find("McpRoundTripBenchmark.governed", "");
		Result ungoverned = find("McpRoundTripBenchmark.ungoverned", "");
		if (governed != null && ungoverned != null) {
			percentile(out, "MCP tools/call round trip over loopback HTTP, p50", governed.p50(), ungoverned.p50(),
					governed.unit());
			percentile(out, "MCP tools/call round trip over loopback HTTP, p99", governed.p99(), ungoverned.p99(),
					governed.unit());
		}
		if (!this.memory.isEmpty()) {
			long sessions = Long.parseLong(this.memory.getProperty("sessions"));
			long cap = Long.parseLong(this.memory.getProperty("cap"));
			double atCap = Double.parseDouble(this.memory.getProperty("retained.cap"));
			double all = Double.parseDouble(this.memory.getProperty("retained.all"));
			double idle = Double.parseDouble(this.memory.getProperty("retained.idle"));
			double unbounded = atCap / cap * sessions;
			out.append("| memory per session: heap retained by ")
				.append(String.format(Locale.ROOT, "%,d", sessions))
				.append(" sessions (SessionMemoryProbe) | ")
				.append(format(all / 1024))
				.append(" KiB | unbounded: ")
				.append(format(unbounded / 1024))
				.append(" KiB (")
				.append(format(atCap / cap))
				.append(" B per session × ")
				.append(String.format(Locale.ROOT, "%,d", sessions))
				.append(") | ")
				.append(format(all / unbounded))
				.append("× | bounded: ≤ ")
				.append(format(cap * 1.2 / sessions))
				.append("× | ")
				.append((all <= atCap * 1.2) ? "yes" : "**no**")
				.append(" |\n");
			out.append("| memory per session: heap retained after every session idled 2 h | ")
				.append(format(idle / 1024))
				.append(" KiB (")
				.append(this.memory.getProperty("retained.idle.threads"))
				.append(" in-memory threads kept) | after ")
				.append(String.format(Locale.ROOT, "%,d", sessions))
				.append(" sessions: ")
				.append(format(all / 1024))
				.append(" KiB | ")
				.append(format(idle / all))
				.append("× | (for reference) | – |\n");
		}
	}

	private static void scaling(StringBuilder out, String target, @Nullable Result measured, @Nullable Result anchor,
			double goal) {
		if (measured == null || anchor == null) {
			return;
		}
		double scaling = measured.score() / anchor.score();
		out.append("| ")
			.append(target)
			.append(" | ")
			.append(format(measured.score()))
			.append(' ')
			.append(measured.unit())
			.append(" | ")
			.append(format(anchor.score()))
			.append(' ')
			.append(anchor.unit())
			.append(" (1 thread) | ")
			.append(format(scaling))
			.append("× | ")
			.append(Double.isNaN(goal) ? "(for reference)" : "≥ " + format(goal) + "×")
			.append(" | ")
			.append(Double.isNaN(goal) ? "–" : ((scaling >= goal) ? "yes" : "**no**"))
			.append(" |\n");
	}

	private static void percentile(StringBuilder out, String target, double governed, double ungoverned, String unit) {
		double ratio = governed / ungoverned;
		out.append("| ")
			.append(target)
			.append(" | governed: ")
			.append(format(governed))
			.append(' ')
			.append(unit)
			.append(" | ungoverned (Spring AI): ")
			.append(format(ungoverned))
			.append(' ')
			.append(unit)
			.append(" | ")
			.append(format(ratio))
			.append("× | ≤ 1.05× | ")
			.append((ratio <= 1.05) ? "yes" : "**no**")
			.append(" |\n");
	}

	private void ratio(StringBuilder out, String target, @Nullable Result measured, @Nullable Result anchor,
			double goal, boolean allocateLess) {
		if (measured == null || anchor == null) {
			return;
		}
		double ratio = measured.score() / anchor.score();
		boolean met = Double.isNaN(goal) || ratio <= goal;
		String goalText = Double.isNaN(goal) ? "(for reference)" : "≤ " + format(goal) + "×";
		if (allocateLess) {
			met &= measured.allocation() < anchor.allocation();
			goalText += ", allocates less";
		}
		out.append("| ")
			.append(target)
			.append(" | ")
			.append(format(measured.score()))
			.append(" ns, ")
			.append(format(measured.allocation()))
			.append(" B/op | ")
			.append(anchor.name())
			.append(": ")
			.append(format(anchor.score()))
			.append(" ns, ")
			.append(format(anchor.allocation()))
			.append(" B/op | ")
			.append(format(ratio))
			.append("× | ")
			.append(goalText)
			.append(" | ")
			.append(Double.isNaN(goal) ? "–" : (met ? "yes" : "**no**"))
			.append(" |\n");
	}

	private @Nullable Result find(String name, String params) {
		for (Result result : this.results.values()) {
			if (result.name().equals(name) && (params.isEmpty() || result.params().equals(params))) {
				return result;
			}
		}
		return null;
	}

	private static String format(double value) {
		if (Double.isNaN(value)) {
			return "–";
		}
		if (Math.abs(value) >= 100) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		return String.format(Locale.ROOT, "%.2f", value);
	}

	/**
	 * One benchmark run, as JMH reports it.
	 */
	record Result(String name, String params, double score, double error, String unit, double allocation, double p50,
			double p99) {

		static Result of(JsonNode run) {
			String benchmark = run.path("benchmark").asString();
			String[] parts = benchmark.split("\\.");
			String name = parts[parts.length - 2] + "." + parts[parts.length - 1];
			List<String> params = new ArrayList<>();
			run.path("params")
				.properties()
				.forEach((entry) -> params.add(entry.getKey() + "=" + entry.getValue().asString()));
			JsonNode primary = run.path("primaryMetric");
			double allocation = Double.NaN;
			for (Map.Entry<String, JsonNode> metric : run.path("secondaryMetrics").properties()) {
				if (metric.getKey().endsWith("gc.alloc.rate.norm")) {
					allocation = number(metric.getValue().path("score"));
				}
			}
			JsonNode percentiles = primary.path("scorePercentiles");
			boolean sampled = "sample".equals(run.path("mode").asString());
			double p50 = sampled && percentiles.has("50.0") ? number(percentiles.path("50.0")) : Double.NaN;
			double p99 = sampled && percentiles.has("99.0") ? number(percentiles.path("99.0")) : Double.NaN;
			return new Result(name, String.join(", ", params), number(primary.path("score")),
					number(primary.path("scoreError")), primary.path("scoreUnit").asString(), allocation, p50, p99);
		}

		// JMH writes "NaN" as a string where it has no value (an error bar from a single
		// iteration).
		private static double number(JsonNode node) {
			return node.isNumber() ? node.asDouble() : Double.NaN;
		}

		String key() {
			return this.name + "(" + this.params + ")";
		}

	}

}
