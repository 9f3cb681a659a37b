package dev.agentmiddleware.chain;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

import dev.agentmiddleware.chain.InterceptorMiddleware.InterceptorFailure;
import dev.agentmiddleware.chain.ToolInterceptor.BeforeDecision;
import dev.agentmiddleware.chain.ToolMiddleware.ToolContractViolationException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ToolInterceptorTests {

	private static final ToolDescriptor ECHO = ToolDescriptor.builder("echo").build();

	private final List<String> events = new ArrayList<>();

	private final ToolHandler tool = (invocation) -> {
		this.events.add("tool");
		return "tool:" + invocation.argument("text");
	};

	@Test
	void beforeHooksRunFirstInFirstOutAndAfterHooksLastInFirstOut() throws Exception {
		ToolPipeline pipeline = pipeline(new Recording("a"), new Recording("b"), new Recording("c"));
		assertThat(pipeline.call(call("hi"))).isEqualTo("tool:hi");
		assertThat(this.events).containsExactly("a-before", "b-before", "c-before", "tool", "c-after", "b-after",
				"a-after");
	}

	@Test
	void skipAnswersWithoutTheToolOrInnerHooksAndRunsEnteredAfterHooksInReverse() throws Exception {
		Recording outer = new Recording("a");
		Recording skipping = new Recording("b").before((invocation) -> BeforeDecision.skip("cached"));
		Recording inner = new Recording("c");
		ToolPipeline pipeline = pipeline(outer, skipping, inner);
		assertThat(pipeline.call(call("hi"))).isEqualTo("cached");
		assertThat(this.events).containsExactly("a-before", "b-before", "b-after", "a-after");
		for (Recording entered : List.of(skipping, outer)) {
			assertThat(entered.results).singleElement().satisfies((result) -> {
				assertThat(result.shortCircuited()).isTrue();
				assertThat(result.isFailure()).isFalse();
				assertThat(result.value()).isEqualTo("cached");
			});
		}
		assertThat(inner.results).isEmpty();
	}

	@Test
	void resultOfAToolThatRanIsNotShortCircuited() throws Exception {
		Recording recording = new Recording("a");
		pipeline(recording).call(call("hi"));
		assertThat(recording.results).singleElement()
			.satisfies((result) -> assertThat(result.shortCircuited()).isFalse());
	}

	@Test
	void outerAfterHookSeesTheLastAttemptWhenAMiddlewareRetriesASkip() throws Exception {
		Recording outer = new Recording("outer");
		List<Boolean> skips = new ArrayList<>(List.of(true, false));
		Recording skipOnce = new Recording("skip-once")
			.before((invocation) -> skips.remove(0) ? BeforeDecision.skip("cached") : BeforeDecision.proceed());
		ToolMiddleware retryOnce = ToolMiddleware.named("retry-once", (descriptor, next) -> (invocation) -> {
			next.handle(invocation);
			return next.handle(invocation);
		});
		ToolPipeline pipeline = ToolPipeline.builder(ECHO, this.tool)
			.interceptor(outer)
			.middleware(retryOnce)
			.interceptor(skipOnce)
			.build();
		assertThat(pipeline.call(call("hi"))).isEqualTo("tool:hi");
		assertThat(skipOnce.results).extracting(ToolInterceptor.Result::shortCircuited).containsExactly(true, false);
		assertThat(outer.results).singleElement().satisfies((result) -> assertThat(result.shortCircuited()).isFalse());
	}

	@Test
	void beforeHookMayRewriteArgumentsForTheLayersInsideAndItsOwnAfterHook() throws Exception {
		Recording rewriting = new Recording("redact")
			.before((invocation) -> BeforeDecision.proceed(invocation.withArgument("text", "[redacted]")));
		Recording inner = new Recording("inner");
		ToolInvocation original = call("secret");
		assertThat(pipeline(rewriting, inner).call(original)).isEqualTo("tool:[redacted]");
		assertThat(inner.invocations).singleElement()
			.satisfies((invocation) -> assertThat(invocation.argument("text")).isEqualTo("[redacted]"));
		assertThat(rewriting.invocations).singleElement()
			.satisfies((invocation) -> assertThat(invocation.argument("text")).isEqualTo("[redacted]"));
		assertThat(original.argument("text")).isEqualTo("secret");
	}

	@Test
	void afterHookMayReplaceTheResult() throws Exception {
		Recording masking = new Recording("mask")
			.after((invocation, result) -> ToolInterceptor.Result.success(((String) result.value()).toUpperCase()));
		assertThat(pipeline(masking).call(call("hi"))).isEqualTo("TOOL:HI");
	}

	@Test
	void toolFailureReachesAfterHooksWhichMayReplaceItWithASuccess() throws Exception {
		IOException failure = new IOException("disk full");
		Recording fallback = new Recording("fallback")
			.after((invocation, result) -> result.isFailure() ? ToolInterceptor.Result.success("fallback") : result);
		Recording inner = new Recording("inner");
		ToolPipeline pipeline = ToolPipeline.builder(ECHO, (invocation) -> {
			throw failure;
		}).interceptor(fallback).interceptor(inner).build();
		assertThat(pipeline.call(call("hi"))).isEqualTo("fallback");
		assertThat(inner.results).singleElement().satisfies((result) -> {
			assertThat(result.isFailure()).isTrue();
			assertThat(result.error()).isSameAs(failure);
			assertThat(result.value()).isNull();
		});
	}

	@Test
	void toolFailureThatAfterHooksKeepPropagatesUnchanged() {
		IOException failure = new IOException("disk full");
		ToolPipeline pipeline = ToolPipeline.builder(ECHO, (invocation) -> {
			throw failure;
		}).interceptor(new Recording("a")).interceptor(new Recording("b")).build();
		assertThatThrownBy(() -> pipeline.call(call("hi"))).isSameAs(failure);
		assertThat(failure.getSuppressed()).isEmpty();
	}

	@Test
	void exceptionFromABeforeHookFailsTheCallNamingTheInterceptorAndReachesOuterAfterHooks() {
		IllegalStateException boom = new IllegalStateException("boom");
		Recording outer = new Recording("outer");
		Recording failing = new Recording("failing").before((invocation) -> {
			throw boom;
		});
		Recording inner = new Recording("inner");
		ToolPipeline pipeline = pipeline(outer, failing, inner);
		assertThatThrownBy(() -> pipeline.call(call("hi"))).isSameAs(boom);
		assertThat(boom.getSuppressed()).singleElement()
			.isInstanceOf(InterceptorFailure.class)
			.satisfies((named) -> assertThat(named.getMessage()).contains("'failing'", "beforeInvocation", "'echo'"));
		assertThat(outer.results).singleElement().satisfies((result) -> assertThat(result.error()).isSameAs(boom));
		assertThat(this.events).containsExactly("outer-before", "failing-before", "outer-after");
	}

	@Test
	void exceptionFromAnAfterHookFailsTheCallNamingTheInterceptor() {
		IllegalStateException boom = new IllegalStateException("boom");
		Recording outer = new Recording("outer");
		Recording failing = new Recording("failing").after((invocation, result) -> {
			throw boom;
		});
		assertThatThrownBy(() -> pipeline(outer, failing).call(call("hi"))).isSameAs(boom);
		assertThat(boom.getSuppressed()).singleElement()
			.satisfies((named) -> assertThat(named.getMessage()).contains("'failing'", "afterInvocation"));
		assertThat(outer.results).singleElement().satisfies((result) -> assertThat(result.error()).isSameAs(boom));
	}

	@Test
	void nullBeforeDecisionFailsWithAContractViolationNamingTheInterceptor() {
		Recording broken = new Recording("broken").before((invocation) -> null);
		assertThatExceptionOfType(ToolContractViolationException.class)
			.isThrownBy(() -> pipeline(broken).call(call("hi")))
			.withMessageContaining("'broken'")
			.withMessageContaining("beforeInvocation returned null");
		assertThat(this.events).doesNotContain("tool");
	}

	@Test
	void nullAfterResultFailsWithAContractViolationNamingTheInterceptor() {
		Recording broken = new Recording("broken").after((invocation, result) -> null);
		assertThatExceptionOfType(ToolContractViolationException.class)
			.isThrownBy(() -> pipeline(broken).call(call("hi")))
			.withMessageContaining("'broken'")
			.withMessageContaining("afterInvocation returned null");
	}

	@Test
	void interceptorThatDoesNotApplyStaysOutOfThePipeline() throws Exception {
		Recording notApplying = new Recording("not-applying") {
			@Override
			public boolean appliesTo(ToolDescriptor tool) {
				return false;
			}
		};
		ToolPipeline pipeline = pipeline(new Recording("a"), notApplying);
		assertThat(pipeline.layers()).containsExactly("a", "echo");
		pipeline.call(call("hi"));
		assertThat(this.events).containsExactly("a-before", "tool", "a-after");
		assertThat(notApplying.invocations).isEmpty();
	}

	@Test
	void middlewareAndInterceptorsMixInOneChainInOrder() throws Exception {
		ToolPipeline pipeline = ToolPipeline.builder(ECHO, this.tool)
			.middleware(recordingMiddleware("m1"))
			.interceptor(new Recording("i1"))
			.middleware(recordingMiddleware("m2"))
			.middleware(List.of(new Recording("i2").asMiddleware()))
			.build();
		pipeline.call(call("hi"));
		assertThat(pipeline.layers()).containsExactly("m1", "i1", "m2", "i2", "echo");
		assertThat(this.events).containsExactly("m1-before", "i1-before", "m2-before", "i2-before", "tool", "i2-after",
				"m2-after", "i1-after", "m1-after");
	}

	@Test
	void defaultNameIsTheClassNameInKebabCaseWithoutTheSuffix() {
		assertThat(new RedactingSecretsInterceptor().name()).isEqualTo("redacting-secrets");
		assertThat(new RedactingSecretsInterceptor().asMiddleware().name()).isEqualTo("redacting-secrets");
	}

	private ToolPipeline pipeline(ToolInterceptor... interceptors) {
		ToolPipeline.Builder builder = ToolPipeline.builder(ECHO, this.tool);
		for (ToolInterceptor interceptor : interceptors) {
			builder.interceptor(interceptor);
		}
		return builder.build();
	}

	private ToolMiddleware recordingMiddleware(String name) {
		return ToolMiddleware.named(name, (descriptor, next) -> (invocation) -> {
			this.events.add(name + "-before");
			Object result = next.handle(invocation);
			this.events.add(name + "-after");
			return result;
		});
	}

	private static ToolInvocation call(String text) {
		return ToolInvocation.builder(ECHO).argument("text", text).build();
	}

	static final class RedactingSecretsInterceptor implements ToolInterceptor {

	}

	/**
	 * Records its hooks into the test's events and what its after-hook saw; behaves as
	 * told.
	 */
	private class Recording implements ToolInterceptor {

		private final String name;

		final List<ToolInvocation> invocations = new ArrayList<>();

		final List<ToolInterceptor.Result> results = new ArrayList<>();

		private Function<ToolInvocation, BeforeDecision> before = (invocation) -> BeforeDecision.proceed();

		private BiFunction<ToolInvocation, ToolInterceptor.Result, ToolInterceptor.Result> after = (invocation,
				result) -> result;

		Recording(String name) {
			this.name = name;
		}

		Recording before(Function<ToolInvocation, BeforeDecision> before) {
			this.before = before;
			return this;
		}

		Recording after(BiFunction<ToolInvocation, ToolInterceptor.Result, ToolInterceptor.Result> after) {
			this.after = after;
			return this;
		}

		@Override
		public BeforeDecision beforeInvocation(ToolInvocation invocation) {
			ToolInterceptorTests.this.events.add(this.name + "-before");
			return this.before.apply(invocation);
		}

		@Override
		public ToolInterceptor.Result afterInvocation(ToolInvocation invocation, ToolInterceptor.Result result) {
			ToolInterceptorTests.this.events.add(this.name + "-after");
			this.invocations.add(invocation);
			this.results.add(result);
			return this.after.apply(invocation, result);
		}

		@Override
		public String name() {
			return this.name;
		}

	}

}
