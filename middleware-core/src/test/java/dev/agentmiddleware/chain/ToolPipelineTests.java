package dev.agentmiddleware.chain;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolMiddleware.ToolContractViolationException;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.TransientToolException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ToolPipelineTests {

	private final List<String> events = Collections.synchronizedList(new ArrayList<>());

	@Test
	void chainRunsTheFirstMiddlewareOutermost() throws Exception {
		ExecutableTool tool = tool("echo", (invocation) -> {
			this.events.add("tool");
			return "done";
		});
		ToolPipeline pipeline = ToolPipeline.chain(tool, recording("a"), recording("b"));
		assertThat(pipeline.call(call(tool))).isEqualTo("done");
		assertThat(this.events).containsExactly("a-before", "b-before", "tool", "b-after", "a-after");
	}

	@Test
	void chainAllWrapsEveryToolWithEveryMiddleware() throws Exception {
		List<ExecutableTool> tools = List.of(tool("one", (invocation) -> 1), tool("two", (invocation) -> 2),
				tool("three", (invocation) -> 3));
		List<ToolPipeline> pipelines = ToolPipeline.chainAll(tools, recording("a"), recording("b"));
		assertThat(pipelines).hasSize(3);
		for (int i = 0; i < 3; i++) {
			ToolPipeline pipeline = pipelines.get(i);
			ExecutableTool tool = tools.get(i);
			assertThat(pipeline.tool()).isEqualTo(tool.descriptor());
			assertThat(pipeline.layers()).containsExactly("a", "b", tool.descriptor().name());
			this.events.clear();
			assertThat(pipeline.call(call(tool))).isEqualTo(i + 1);
			assertThat(this.events).containsExactly("a-before", "b-before", "b-after", "a-after");
		}
	}

	@Test
	void chainAllLetsEachMiddlewareDecidePerTool() throws Exception {
		List<String> wrapped = new ArrayList<>();
		ToolMiddleware browserOnly = ToolMiddleware.named("browser-only", (descriptor, next) -> {
			wrapped.add(descriptor.name());
			return descriptor.hasTag("browser") ? (invocation) -> "browser:" + next.handle(invocation) : next;
		});
		ExecutableTool open = new ExecutableTool(ToolDescriptor.builder("open_page").tags("browser").build(),
				(invocation) -> "opened");
		ExecutableTool read = tool("read_file", (invocation) -> "read");
		ExecutableTool click = new ExecutableTool(ToolDescriptor.builder("click").tags("browser").build(),
				(invocation) -> "clicked");
		List<ToolPipeline> pipelines = ToolPipeline.chainAll(List.of(open, read, click), recording("a"), browserOnly);
		assertThat(wrapped).containsExactly("open_page", "read_file", "click");
		assertThat(pipelines).extracting(ToolPipeline::layers)
			.containsExactly(List.of("a", "browser-only", "open_page"), List.of("a", "read_file"),
					List.of("a", "browser-only", "click"));
		assertThat(pipelines.get(0).call(call(open))).isEqualTo("browser:opened");
		assertThat(pipelines.get(1).call(call(read))).isEqualTo("read");
		assertThat(pipelines.get(2).call(call(click))).isEqualTo("browser:clicked");
	}

	@Test
	void middlewareThatReturnsNextIsLeftOutAndWrapsOnlyOnceAtBuildTime() throws Exception {
		AtomicInteger notApplyingWraps = new AtomicInteger();
		AtomicInteger applyingWraps = new AtomicInteger();
		ToolMiddleware notApplying = ToolMiddleware.named("not-applying", (descriptor, next) -> {
			notApplyingWraps.incrementAndGet();
			return next;
		});
		ToolMiddleware applying = ToolMiddleware.named("applying", (descriptor, next) -> {
			applyingWraps.incrementAndGet();
			return next::handle;
		});
		ExecutableTool tool = tool("echo", (invocation) -> "done");
		ToolPipeline pipeline = ToolPipeline.chain(tool, applying, notApplying);
		for (int i = 0; i < 100; i++) {
			pipeline.call(call(tool));
		}
		assertThat(notApplyingWraps).hasValue(1);
		assertThat(applyingWraps).hasValue(1);
		assertThat(pipeline.layers()).containsExactly("applying", "echo");
		assertThat(pipeline.describe()).isEqualTo("echo → [applying, echo]");
	}

	@Test
	void withNoApplicableMiddlewareTheToolHandlerRunsDirectly() throws Exception {
		List<String> callers = new ArrayList<>();
		ToolHandler handler = new ToolHandler() {
			@Override
			public Object handle(ToolInvocation invocation) {
				StackWalker.getInstance()
					.walk((frames) -> frames.skip(1).findFirst())
					.ifPresent((frame) -> callers.add(frame.getClassName() + "." + frame.getMethodName()));
				return "done";
			}
		};
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("echo").build(), handler);
		ToolMiddleware notApplying = ToolMiddleware.named("not-applying", (descriptor, next) -> next);
		ToolPipeline pipeline = ToolPipeline.chain(tool, notApplying, notApplying);
		assertThat(pipeline.call(call(tool))).isEqualTo("done");
		assertThat(callers).containsExactly(ToolPipeline.class.getName() + ".call");
		assertThat(pipeline.layers()).containsExactly("echo");
	}

	@Test
	void middlewareMayProceedTwiceToRetry() throws Exception {
		AtomicInteger runs = new AtomicInteger();
		ExecutableTool tool = tool("flaky", (invocation) -> {
			if (runs.incrementAndGet() == 1) {
				throw new TransientToolException("connection reset");
			}
			return "ok";
		});
		ToolMiddleware retry = ToolMiddleware.named("retry", (descriptor, next) -> (invocation) -> {
			try {
				return next.handle(invocation);
			}
			catch (TransientToolException ex) {
				return next.handle(invocation);
			}
		});
		assertThat(ToolPipeline.chain(tool, retry).call(call(tool))).isEqualTo("ok");
		assertThat(runs).hasValue(2);
	}

	@Test
	void middlewareMayRewriteArgumentsForTheLayersInside() throws Exception {
		List<ToolInvocation> seen = new ArrayList<>();
		ExecutableTool tool = tool("get_weather", (invocation) -> {
			seen.add(invocation);
			return invocation.argument("city");
		});
		ToolMiddleware rewrite = ToolMiddleware.named("rewrite",
				(descriptor, next) -> (invocation) -> next.handle(invocation.withArgument("city", "Lisbon")));
		ToolInvocation original = ToolInvocation.builder(tool.descriptor()).argument("city", "lisboa").build();
		assertThat(ToolPipeline.chain(tool, rewrite).call(original)).isEqualTo("Lisbon");
		assertThat(original.argument("city")).isEqualTo("lisboa");
		assertThat(seen).singleElement().satisfies((invocation) -> {
			assertThat(invocation.arguments()).isEqualTo(Map.of("city", "Lisbon"));
			assertThat(invocation.callId()).isEqualTo(original.callId());
		});
	}

	@Test
	void middlewareMayShortCircuitWithoutProceeding() throws Exception {
		AtomicInteger runs = new AtomicInteger();
		ExecutableTool tool = tool("echo", (invocation) -> runs.incrementAndGet());
		ToolMiddleware answer = ToolMiddleware.named("answer", (descriptor, next) -> (invocation) -> "canned");
		ToolPipeline pipeline = ToolPipeline.chain(tool, recording("a"), answer, recording("inner"));
		assertThat(pipeline.call(call(tool))).isEqualTo("canned");
		assertThat(runs).hasValue(0);
		assertThat(this.events).containsExactly("a-before", "a-after");
	}

	@Test
	void toolCheckedExceptionPropagatesUnchanged() {
		IOException failure = new IOException("disk full");
		ExecutableTool tool = tool("write_file", (invocation) -> {
			throw failure;
		});
		ToolPipeline pipeline = ToolPipeline.chain(tool, recording("a"), recording("b"));
		assertThatThrownBy(() -> pipeline.call(call(tool))).isSameAs(failure);
		assertThat(failure.getSuppressed()).isEmpty();
		assertThat(failure.getCause()).isNull();
	}

	@Test
	void toolUncheckedExceptionPropagatesUnchanged() {
		IllegalStateException failure = new IllegalStateException("not connected");
		ExecutableTool tool = tool("send", (invocation) -> {
			throw failure;
		});
		ToolPipeline pipeline = ToolPipeline.chain(tool, recording("a"));
		assertThatThrownBy(() -> pipeline.call(call(tool))).isSameAs(failure);
		assertThat(failure.getSuppressed()).isEmpty();
	}

	@Test
	void middlewareResultOfTheWrongTypeFailsNamingThatMiddleware() {
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("count").resultType(Integer.class).build(),
				(invocation) -> 42);
		ToolMiddleware liar = ToolMiddleware.named("liar", (descriptor, next) -> (invocation) -> "forty-two");
		ToolPipeline pipeline = ToolPipeline.chain(tool, recording("outer"), liar, recording("inner"));
		assertThatExceptionOfType(ToolContractViolationException.class).isThrownBy(() -> pipeline.call(call(tool)))
			.withMessageContaining("'liar'")
			.withMessageContaining("'count'")
			.withMessageContaining("java.lang.String")
			.withMessageNotContaining("'outer'")
			.satisfies((ex) -> assertThat(ex.decidedBy()).isEqualTo("liar"))
			.satisfies((ex) -> assertThat(ex.outcome()).isEqualTo(CallOutcome.FAILED));
	}

	@Test
	void middlewareThatChangesTheToolsResultToTheWrongTypeIsNamedWithoutRunningTheToolAgain() throws Exception {
		AtomicInteger runs = new AtomicInteger();
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("count").resultType(Integer.class).build(),
				(invocation) -> runs.incrementAndGet());
		ToolMiddleware stringify = ToolMiddleware.named("stringify",
				(descriptor, next) -> (invocation) -> String.valueOf(next.handle(invocation)));
		List<ToolCallRecord> records = new ArrayList<>();
		ToolCallObserver observer = new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		};
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(observer).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(tool.descriptor(), tool.handler())
				.middleware(List.of(recording("outer"), stringify, recording("inner")))
				.observers(observers)
				.build();
			assertThatExceptionOfType(ToolContractViolationException.class).isThrownBy(() -> pipeline.call(call(tool)))
				.withMessageContaining("'stringify'")
				.withMessageContaining("java.lang.String")
				.satisfies((ex) -> assertThat(ex.decidedBy()).isEqualTo("stringify"));
		}
		assertThat(runs).hasValue(1);
		assertThat(records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.FAILED);
			assertThat(record.decidedBy()).isEqualTo("stringify");
		});
	}

	@Test
	void withoutARecordedToolResultTheViolationNamesEveryLayerThatCouldHaveChangedIt() {
		AtomicInteger runs = new AtomicInteger();
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("count").resultType(Integer.class).build(),
				(invocation) -> runs.incrementAndGet());
		ToolMiddleware stringify = ToolMiddleware.named("stringify",
				(descriptor, next) -> (invocation) -> String.valueOf(next.handle(invocation)));
		ToolPipeline pipeline = ToolPipeline.chain(tool, recording("outer"), stringify);
		assertThatExceptionOfType(ToolContractViolationException.class).isThrownBy(() -> pipeline.call(call(tool)))
			.withMessageContaining("one of [outer, stringify]")
			.withMessageContaining("java.lang.String");
		assertThat(runs).hasValue(1);
	}

	@Test
	void theResultIsCheckedOnceForTheWholeChainSoAnOuterLayerMayRepairAnInnerOne() throws Exception {
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("count").resultType(Integer.class).build(),
				(invocation) -> 42);
		ToolMiddleware stringify = ToolMiddleware.named("stringify",
				(descriptor, next) -> (invocation) -> String.valueOf(next.handle(invocation)));
		ToolMiddleware parse = ToolMiddleware.named("parse",
				(descriptor, next) -> (invocation) -> Integer.valueOf((String) next.handle(invocation)));
		assertThat(ToolPipeline.chain(tool, parse, stringify).call(call(tool))).isEqualTo(42);
	}

	@Test
	void middlewareResultOfTheDeclaredTypeIsAccepted() throws Exception {
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("count").resultType(int.class).build(),
				(invocation) -> 1);
		ToolMiddleware constant = ToolMiddleware.named("constant", (descriptor, next) -> (invocation) -> 42);
		assertThat(ToolPipeline.chain(tool, recording("outer"), constant).call(call(tool))).isEqualTo(42);
	}

	@Test
	void wrapReturningNullFailsTheBuildNamingTheMiddleware() {
		ExecutableTool tool = tool("echo", (invocation) -> "done");
		ToolMiddleware broken = ToolMiddleware.named("broken", (descriptor, next) -> null);
		assertThatIllegalStateException().isThrownBy(() -> ToolPipeline.chain(tool, recording("a"), broken))
			.withMessageContaining("'broken'")
			.withMessageContaining("'echo'")
			.withMessageContaining("return next");
	}

	@Test
	void invocationOfAnotherToolIsRejected() {
		AtomicInteger runs = new AtomicInteger();
		ExecutableTool echo = tool("echo", (invocation) -> runs.incrementAndGet());
		ToolPipeline pipeline = ToolPipeline.chain(echo, recording("a"));
		ToolInvocation other = ToolInvocation.builder(ToolDescriptor.builder("delete_file").build()).build();
		assertThatIllegalArgumentException().isThrownBy(() -> pipeline.call(other))
			.withMessageContaining("'delete_file'")
			.withMessageContaining("'echo'");
		assertThat(runs).hasValue(0);
		assertThat(this.events).isEmpty();
	}

	@Test
	void describeListsTheLayersOutermostFirstEndingWithTheTool() {
		ToolPipeline pipeline = ToolPipeline.chain(tool("get_weather", (invocation) -> "sunny"), recording("logging"),
				recording("cache"));
		assertThat(pipeline.describe()).isEqualTo("get_weather → [logging, cache, get_weather]");
		assertThat(pipeline).hasToString(pipeline.describe());
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> pipeline.layers().add("sneaky"));
	}

	@Test
	void unnamedMiddlewareIsNamedAfterItsClass() {
		ExecutableTool tool = tool("echo", (invocation) -> "done");
		ToolPipeline pipeline = ToolPipeline.chain(tool, new CallCountingMiddleware(),
				(descriptor, next) -> next::handle);
		assertThat(pipeline.layers()).containsExactly("call-counting", "anonymous-middleware", "echo");
	}

	@Test
	void concurrentCallsDoNotShareState() throws Exception {
		int threads = 4;
		int callsPerThread = 200;
		CountDownLatch allInside = new CountDownLatch(threads);
		AtomicInteger gateTimeouts = new AtomicInteger();
		ExecutableTool tool = tool("double", (invocation) -> {
			int n = (int) invocation.argument("n");
			if (n % callsPerThread == 0) {
				// the first call of each thread waits for the others, so that all are in
				// flight at once
				allInside.countDown();
				if (!allInside.await(10, TimeUnit.SECONDS)) {
					gateTimeouts.incrementAndGet();
				}
			}
			return n * 2;
		});
		ToolMiddleware addOne = ToolMiddleware.named("add-one",
				(descriptor, next) -> (invocation) -> (int) next.handle(invocation) + 1);
		ToolPipeline pipeline = ToolPipeline.chain(tool, recording("a"), addOne);
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<List<String>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int first = t * callsPerThread;
				futures.add(executor.submit(() -> {
					List<String> mismatches = new ArrayList<>();
					for (int n = first; n < first + callsPerThread; n++) {
						Object result = pipeline
							.call(ToolInvocation.builder(tool.descriptor()).argument("n", n).build());
						if (!Integer.valueOf(n * 2 + 1).equals(result)) {
							mismatches.add(n + " -> " + result);
						}
					}
					return mismatches;
				}));
			}
			for (Future<List<String>> future : futures) {
				assertThat(future.get(30, TimeUnit.SECONDS)).isEmpty();
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(gateTimeouts).hasValue(0);
		assertThat(this.events).hasSize(threads * callsPerThread * 2);
	}

	private ToolMiddleware recording(String name) {
		return ToolMiddleware.named(name, (descriptor, next) -> (invocation) -> {
			this.events.add(name + "-before");
			Object result = next.handle(invocation);
			this.events.add(name + "-after");
			return result;
		});
	}

	private static ExecutableTool tool(String name, ToolHandler handler) {
		return new ExecutableTool(ToolDescriptor.builder(name).build(), handler);
	}

	private static ToolInvocation call(ExecutableTool tool) {
		return ToolInvocation.builder(tool.descriptor()).build();
	}

	static final class CallCountingMiddleware implements ToolMiddleware {

		@Override
		public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
			return next::handle;
		}

	}

}
