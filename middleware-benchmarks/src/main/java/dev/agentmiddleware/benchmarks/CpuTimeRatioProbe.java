package dev.agentmiddleware.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import com.sun.management.ThreadMXBean;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * The rows of {@link DefaultStackBenchmark} as ratios to Spring AI's call that a loaded
 * machine cannot blur: in one JVM, rounds of each call alternate (ours, then Spring AI's,
 * round after round), and each round is timed by the <em>CPU time</em> of the calling
 * thread, which does not grow while the thread waits for a core that other processes hold
 * (wall-clock time, which JMH measures, does). Also the bytes allocated per call (exact).
 * Prints, per row, the median over the rounds of the CPU time per call of each side and
 * the median of the per-round ratios. Outside JMH: use it beside JMH's table on a shared
 * machine, never instead of it on a quiet one. <pre>
 * java -cp middleware-benchmarks/target/benchmarks.jar dev.agentmiddleware.benchmarks.CpuTimeRatioProbe [rounds]
 * </pre>
 */
public final class CpuTimeRatioProbe {

	private static final int CALLS_PER_ROUND = 20_000;

	private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

	private CpuTimeRatioProbe() {
	}

	public static void main(String[] args) {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 30;
		ToolContext session = new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "probe"));
		try (AnnotationConfigApplicationContext context = BenchmarkContexts.defaultStack()) {
			for (String tool : List.of("echo", "plan_trip")) {
				ToolCallback ours = BenchmarkContexts.callback(context, tool);
				ToolCallback springAi = JsonPathBenchmark.springAiCallback(tool);
				String same = Arguments.same(tool);
				String[] distinct = Arguments.distinct(tool);
				compare("cache hit, " + tool, rounds, (i) -> ours.call(same, session), (i) -> springAi.call(same));
				compare("cache miss, " + tool, rounds, (i) -> ours.call(distinct[i & (Arguments.COUNT - 1)], session),
						(i) -> springAi.call(distinct[i & (Arguments.COUNT - 1)]));
			}
		}
	}

	private static void compare(String row, int rounds, IntFunction<String> ours, IntFunction<String> anchor) {
		int[] next = new int[1];
		for (int warmUp = 0; warmUp < 5; warmUp++) {
			round(ours, next);
			round(anchor, next);
		}
		List<double[]> samples = new ArrayList<>();
		for (int r = 0; r < rounds; r++) {
			double[] oursRound = round(ours, next);
			double[] anchorRound = round(anchor, next);
			samples.add(new double[] { oursRound[0], anchorRound[0], oursRound[1], anchorRound[1] });
		}
		double oursNanos = median(samples, 0);
		double anchorNanos = median(samples, 1);
		double[] ratios = samples.stream().mapToDouble((s) -> s[0] / s[1]).sorted().toArray();
		System.out.printf(
				"%-22s ours %,8.0f ns CPU, %,6.0f B | Spring AI %,8.0f ns CPU, %,6.0f B | ratio %.2f "
						+ "(median of %d rounds; quartiles %.2f-%.2f)%n",
				row, oursNanos, median(samples, 2), anchorNanos, median(samples, 3), ratios[ratios.length / 2], rounds,
				ratios[ratios.length / 4], ratios[(3 * ratios.length) / 4]);
	}

	// CPU nanoseconds and bytes allocated per call, over one round
	private static double[] round(IntFunction<String> call, int[] next) {
		long thread = Thread.currentThread().getId();
		long bytes = THREADS.getThreadAllocatedBytes(thread);
		long cpu = THREADS.getCurrentThreadCpuTime();
		int sink = 0;
		for (int i = 0; i < CALLS_PER_ROUND; i++) {
			sink += call.apply(next[0]++).length();
		}
		cpu = THREADS.getCurrentThreadCpuTime() - cpu;
		bytes = THREADS.getThreadAllocatedBytes(thread) - bytes;
		if (sink == 42) {
			System.out.print("");
		}
		return new double[] { (double) cpu / CALLS_PER_ROUND, (double) bytes / CALLS_PER_ROUND };
	}

	// The median of one column of the samples (also PersonalDataCpuProbe's)
	static double median(List<double[]> samples, int index) {
		double[] values = samples.stream().mapToDouble((s) -> s[index]).toArray();
		Arrays.sort(values);
		return values[values.length / 2];
	}

}
