package dev.agentmiddleware.benchmarks;

import java.util.concurrent.TimeUnit;

import org.aopalliance.intercept.MethodInterceptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * The Java path: an {@code @AgentTool} method called on its bean (our class-based proxy,
 * no applicable middleware) against a Spring AOP class-based proxy with one no-op
 * {@code MethodInterceptor}, the anchor a Spring user knows.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JavaPathBenchmark {

	private final String text = "hello";

	private AnnotationConfigApplicationContext context;

	private BenchmarkTools agentToolProxy;

	private BenchmarkTools springAopProxy;

	@Setup
	public void setUp() {
		this.context = BenchmarkContexts.bare();
		this.agentToolProxy = this.context.getBean(BenchmarkTools.class);
		ProxyFactory factory = new ProxyFactory(new BenchmarkTools());
		factory.setProxyTargetClass(true);
		factory.addAdvice((MethodInterceptor) (invocation) -> invocation.proceed());
		this.springAopProxy = (BenchmarkTools) factory.getProxy();
	}

	@TearDown
	public void tearDown() {
		this.context.close();
	}

	@Benchmark
	public String agentToolProxy() {
		return this.agentToolProxy.echo(this.text);
	}

	@Benchmark
	public String springAopProxy() {
		return this.springAopProxy.echo(this.text);
	}

}
