package dev.agentmiddleware.benchmarks.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import dev.agentmiddleware.benchmarks.load.LoadDriver.Result;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * The Markdown tables of a {@link LoadDriver} run: the targets, each server and shape
 * summed over the rounds, and every round. A ratio is the median of the per-round ratios
 * against the ungoverned server of the same round (for the {@code stateless} shape, which
 * only our server speaks, its {@code steady} shape), so that a change of the machine's
 * load between rounds moves both sides of a ratio alike.
 */
final class LoadReport {

	private static final String ANCHOR = "ungoverned";

	private final List<Result> results;

	private final List<String> servers;

	private final List<String> shapes;

	LoadReport(List<Result> results, List<String> servers, List<String> shapes) {
		this.results = results;
		this.servers = servers;
		this.shapes = shapes;
	}

	String markdown(String arguments, String started, String loadBefore, String loadAfter, int clients,
			String clientThreads, int warmup, int measure, int rounds, String driverJava, String serverJava) {
		StringBuilder out = new StringBuilder();
		out.append("Command: `middleware-benchmarks/run-load.sh ").append(arguments).append("`  \n");
		out.append("Started: ")
			.append(started)
			.append("; load average before ")
			.append(loadBefore)
			.append(", after ")
			.append(loadAfter)
			.append("  \n");
		out.append("Servers: ")
			.append(serverJava)
			.append(", each its own JVM (fixed heap); driver: JDK ")
			.append(driverJava)
			.append(", ")
			.append(clients)
			.append(" clients on ")
			.append(clientThreads)
			.append("  \n");
		out.append(String.format(Locale.ROOT,
				"Each round: every shape on every server in turn, %d s warm-up + %d s measured; %d rounds%n%n", warmup,
				measure, rounds));
		out.append("#### Targets\n\n");
		out.append("| target | shape | measured | anchor (ungoverned) | ratio | goal | met |\n");
		out.append("| --- | --- | ---: | ---: | ---: | --- | --- |\n");
		for (String shape : this.shapes) {
			target(out, "governed", shape, "requests/s", Result::requestsPerSecond, "%,.0f req/s", "≥ 0.95×", 0.95,
					true);
			target(out, "governed", shape, "p99 latency", (r) -> r.all().getValueAtPercentile(99), "%,.0f µs",
					"≤ 1.10×", 1.10, false);
			target(out, "governed", shape, "server CPU per request", Result::cpuMicrosPerRequest, "%,.0f µs", "≤ 1.10×",
					1.10, false);
			target(out, "governed-jdbc", shape, "requests/s", Result::requestsPerSecond, "%,.0f req/s", "≥ 0.80×", 0.80,
					true);
			target(out, "governed-jdbc", shape, "p99 latency", (r) -> r.all().getValueAtPercentile(99), "%,.0f µs",
					null, 0, false);
			target(out, "governed-jdbc", shape, "server CPU per request", Result::cpuMicrosPerRequest, "%,.0f µs", null,
					0, false);
			target(out, "governed-pg-rate-limit", shape, "requests/s", Result::requestsPerSecond, "%,.0f req/s", null,
					0, true);
			target(out, "governed-pg-rate-limit", shape, "p99 latency", (r) -> r.all().getValueAtPercentile(99),
					"%,.0f µs", null, 0, false);
			target(out, "governed-redis-rate-limit", shape, "requests/s", Result::requestsPerSecond, "%,.0f req/s",
					null, 0, true);
			target(out, "governed-redis-rate-limit", shape, "p99 latency", (r) -> r.all().getValueAtPercentile(99),
					"%,.0f µs", null, 0, false);
		}
		out.append("\n#### Every server, the rounds together\n\n");
		out.append("| server | shape | requests/s (median of rounds) | p50 | p90 | p99 | max | tools/call p50 / p99 | "
				+ "errors | server CPU per request | server cores busy |\n");
		out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (String shape : this.shapes) {
			for (String server : this.servers) {
				List<Result> runs = runs(server, shape);
				if (runs.isEmpty()) {
					continue;
				}
				Histogram all = new Histogram(3_600_000_000L, 3);
				Histogram calls = new Histogram(3_600_000_000L, 3);
				long errors = 0;
				long cpu = 0;
				long elapsed = 0;
				for (Result run : runs) {
					all.add(run.all());
					calls.add(run.calls());
					errors += run.errors();
					cpu += run.serverCpuNanos();
					elapsed += run.elapsedNanos();
				}
				out.append(String.format(Locale.ROOT,
						"| %s | %s | %,.0f | %,d µs | %,d µs | %,d µs | %,d µs | %,d / %,d µs | %d | %,.0f µs | %.2f |%n",
						server, shape, median(runs, Result::requestsPerSecond), all.getValueAtPercentile(50),
						all.getValueAtPercentile(90), all.getValueAtPercentile(99), all.getMaxValue(),
						calls.getValueAtPercentile(50), calls.getValueAtPercentile(99), errors,
						(all.getTotalCount() == 0) ? 0.0 : cpu / 1000.0 / all.getTotalCount(), (double) cpu / elapsed));
			}
		}
		out.append("\n#### Every round\n\n");
		out.append("| round | shape | server | requests/s | p50 | p99 | max | errors | server CPU per request | "
				+ "cores: server / driver / others (PostgreSQL included) | server's JIT compiling | load average before → after |\n");
		out.append("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |\n");
		for (Result run : this.results) {
			out.append(String.format(Locale.ROOT,
					"| %d | %s | %s | %,.0f | %,d µs | %,d µs | %,d µs | %d | %,.0f µs | %.2f / %.2f / %.2f | %s | %s → %s |%n",
					run.round(), run.shape(), run.server(), run.requestsPerSecond(), run.all().getValueAtPercentile(50),
					run.all().getValueAtPercentile(99), run.all().getMaxValue(), run.errors(),
					run.cpuMicrosPerRequest(), run.cores(run.serverCpuNanos()), run.cores(run.driverCpuNanos()),
					run.cores(run.otherCpuNanos()), run.jit(), run.loadBefore(), run.loadAfter()));
		}
		List<String> errors = new ArrayList<>();
		for (Result run : this.results) {
			if (run.firstError() != null) {
				errors.add("- round " + run.round() + ", " + run.shape() + ", " + run.server() + ": "
						+ run.firstError().replace('\n', ' ').replace("|", "\\|"));
			}
		}
		if (!errors.isEmpty()) {
			out.append("\nFirst error of each run (warm-up included):\n\n")
				.append(String.join("\n", errors))
				.append('\n');
		}
		return out.toString();
	}

	private void target(StringBuilder out, String server, String shape, String what, ToDoubleFunction<Result> metric,
			String format, @Nullable String goal, double limit, boolean atLeast) {
		List<Result> runs = runs(server, shape);
		List<Result> anchors = runs(ANCHOR, anchorShape(shape));
		if (runs.isEmpty() || anchors.isEmpty()) {
			return;
		}
		List<Double> ratios = new ArrayList<>();
		for (Result run : runs) {
			for (Result anchor : anchors) {
				if (anchor.round() == run.round()) {
					ratios.add(metric.applyAsDouble(run) / metric.applyAsDouble(anchor));
				}
			}
		}
		double ratio = medianOf(ratios);
		String met = (goal == null) ? "–" : ((atLeast ? ratio >= limit : ratio <= limit) ? "yes" : "**no**");
		out.append(String.format(Locale.ROOT, "| %s, %s | %s | " + format + " | " + format + " | %.2f× | %s | %s |%n",
				server, what, shape, median(runs, metric), median(anchors, metric), ratio,
				(goal != null) ? goal : "(for reference)", met));
	}

	// Spring AI's server does not speak 2026-07-28: a stateless call is compared with its
	// calls on a session
	private static String anchorShape(String shape) {
		return LoadDriver.STATELESS.equals(shape) ? "steady" : shape;
	}

	private List<Result> runs(String server, String shape) {
		return this.results.stream().filter((r) -> r.server().equals(server) && r.shape().equals(shape)).toList();
	}

	private static double median(List<Result> runs, ToDoubleFunction<Result> metric) {
		return medianOf(runs.stream().map(metric::applyAsDouble).toList());
	}

	private static double medianOf(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int n = sorted.size();
		return (n % 2 == 1) ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
	}

}
