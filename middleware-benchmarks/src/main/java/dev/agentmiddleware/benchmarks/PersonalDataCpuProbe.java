package dev.agentmiddleware.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.sun.management.ThreadMXBean;

/**
 * The rows of {@link PersonalDataBenchmark} timed by the <em>CPU time</em> of the calling
 * thread, for a machine that other processes keep busy (JMH's wall-clock time grows while
 * the thread waits for a core; CPU time does not), as {@link CpuTimeRatioProbe} does for
 * the default stack. In one JVM, rounds alternate between masking off and on; it prints,
 * per result, the median CPU time per call of each side over the rounds, the median of
 * the per-round ratios with its quartiles, and the bytes allocated per call. <pre>
 * java -cp middleware-benchmarks/target/benchmarks.jar dev.agentmiddleware.benchmarks.PersonalDataCpuProbe [rounds]
 * </pre>
 */
public final class PersonalDataCpuProbe {

	private static final int CALLS_PER_ROUND = 500;

	private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

	private PersonalDataCpuProbe() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 30;
		PersonalDataBenchmark off = benchmark("off");
		PersonalDataBenchmark on = benchmark("on");
		compare("text with personal data", rounds, off::textWithPersonalData, on::textWithPersonalData);
		compare("text without", rounds, off::textWithoutPersonalData, on::textWithoutPersonalData);
		compare("structured result", rounds, off::structuredWithPersonalData, on::structuredWithPersonalData);
	}

	private static PersonalDataBenchmark benchmark(String personalData) {
		PersonalDataBenchmark benchmark = new PersonalDataBenchmark();
		benchmark.personalData = personalData;
		benchmark.setUp();
		return benchmark;
	}

	private static void compare(String row, int rounds, Callable<?> off, Callable<?> on) throws Exception {
		for (int warmUp = 0; warmUp < 10; warmUp++) {
			round(off);
			round(on);
		}
		List<double[]> samples = new ArrayList<>();
		for (int r = 0; r < rounds; r++) {
			double[] offRound = round(off);
			double[] onRound = round(on);
			samples.add(new double[] { offRound[0], onRound[0], offRound[1], onRound[1] });
		}
		double[] ratios = samples.stream().mapToDouble((s) -> s[1] / s[0]).sorted().toArray();
		System.out.printf(
				"%-24s off %,9.0f ns CPU, %,7.0f B | on %,9.0f ns CPU, %,7.0f B | on/off %.2f "
						+ "(median of %d rounds; quartiles %.2f-%.2f)%n",
				row, CpuTimeRatioProbe.median(samples, 0), CpuTimeRatioProbe.median(samples, 2),
				CpuTimeRatioProbe.median(samples, 1), CpuTimeRatioProbe.median(samples, 3), ratios[ratios.length / 2],
				rounds, ratios[ratios.length / 4], ratios[(3 * ratios.length) / 4]);
	}

	// CPU nanoseconds and bytes allocated per call, over one round
	private static double[] round(Callable<?> call) throws Exception {
		long thread = Thread.currentThread().getId();
		long bytes = THREADS.getThreadAllocatedBytes(thread);
		long cpu = THREADS.getCurrentThreadCpuTime();
		int sink = 0;
		for (int i = 0; i < CALLS_PER_ROUND; i++) {
			sink += System.identityHashCode(call.call());
		}
		cpu = THREADS.getCurrentThreadCpuTime() - cpu;
		bytes = THREADS.getThreadAllocatedBytes(thread) - bytes;
		if (sink == 42) {
			System.out.print("");
		}
		return new double[] { (double) cpu / CALLS_PER_ROUND, (double) bytes / CALLS_PER_ROUND };
	}

}
