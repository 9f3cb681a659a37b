package dev.agentmiddleware.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * Throughput of the default stack on cache misses with one, two and four threads (each
 * thread its own session): two threads should give nearly twice the calls where two cores
 * are free for them, which they cannot if a lock is shared on the hot path; four threads
 * on a two-core machine show only that throughput does not collapse.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DefaultStackThroughputBenchmark {

	private AnnotationConfigApplicationContext context;

	private ToolCallback ours;

	private String[] distinct;

	@Setup
	public void setUp() {
		this.context = BenchmarkContexts.defaultStack();
		this.ours = BenchmarkContexts.callback(this.context, "echo");
		this.distinct = Arguments.distinct("echo");
	}

	@TearDown
	public void tearDown() {
		this.context.close();
	}

	@Benchmark
	@Threads(1)
	public String oneThread(Caller caller) {
		return caller.call(this);
	}

	@Benchmark
	@Threads(2)
	public String twoThreads(Caller caller) {
		return caller.call(this);
	}

	@Benchmark
	@Threads(4)
	public String fourThreads(Caller caller) {
		return caller.call(this);
	}

	/**
	 * Each thread's own session and position in the arguments.
	 */
	@State(Scope.Thread)
	public static class Caller {

		private static final java.util.concurrent.atomic.AtomicInteger THREADS = new java.util.concurrent.atomic.AtomicInteger();

		private final ToolContext session = new ToolContext(
				Map.of(AgentToolCallback.SESSION_ID_KEY, "session-" + THREADS.incrementAndGet()));

		private int next = THREADS.get() * 7919;

		String call(DefaultStackThroughputBenchmark benchmark) {
			String json = benchmark.distinct[this.next];
			this.next = (this.next + 1) & (Arguments.COUNT - 1);
			return benchmark.ours.call(json, this.session);
		}

	}

}
