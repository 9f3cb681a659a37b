package dev.agentmiddleware.benchmarks;

import java.util.concurrent.TimeUnit;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What Micrometer itself costs, as anchors for the observation built-in: a cached
 * {@code Timer}, and a bare {@code Observation} with four constant tags and the meter
 * handler Spring Boot registers (timer and long-task timer), with and without the
 * long-task timer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MicrometerBenchmark {

	private final KeyValues tags = KeyValues.of("agent.tool.name", "echo", "agent.tool.outcome", "succeeded", "error",
			"none", "agent.tool.source", "spring_ai");

	private final BenchmarkTools tools = new BenchmarkTools();

	private Timer timer;

	private ObservationRegistry withLongTaskTimer;

	private ObservationRegistry withoutLongTaskTimer;

	@Setup
	public void setUp() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		this.timer = Timer.builder("agent.tool.call").tags("agent.tool.name", "echo").register(meters);
		this.withLongTaskTimer = ObservationRegistry.create();
		this.withLongTaskTimer.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		this.withoutLongTaskTimer = ObservationRegistry.create();
		this.withoutLongTaskTimer.observationConfig()
			.observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry(),
					DefaultMeterObservationHandler.IgnoredMeters.LONG_TASK_TIMER));
	}

	@Benchmark
	public String cachedTimer() {
		return this.timer.record(() -> this.tools.echo("hello"));
	}

	@Benchmark
	public String observation() {
		return Observation.createNotStarted("agent.tool.call", this.withLongTaskTimer)
			.lowCardinalityKeyValues(this.tags)
			.observe(() -> this.tools.echo("hello"));
	}

	@Benchmark
	public String observationWithoutLongTaskTimer() {
		return Observation.createNotStarted("agent.tool.call", this.withoutLongTaskTimer)
			.lowCardinalityKeyValues(this.tags)
			.observe(() -> this.tools.echo("hello"));
	}

}
