package dev.agentmiddleware.learning;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.learning.LearningObserver.LearningObserverAdapter;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LearningObserverAdapterTests {

	private static final ToolDescriptor SEARCH = ToolDescriptor.builder("search").build();

	@Test
	void observerGetsSessionToolParamsResultAndErrorOfEveryCall() throws Exception {
		List<String> seen = new CopyOnWriteArrayList<>();
		LearningObserver observer = (sessionKey, toolName, params, result, error) -> seen.add(sessionKey + "|"
				+ toolName + "|" + params + "|" + result + "|" + ((error != null) ? error.getMessage() : null));
		try (ToolCallObservers observers = ToolCallObservers.builder()
			.observer(LearningObserverAdapter.synchronous(List.of(observer)))
			.build()) {
			ToolPipeline pipeline = ToolPipeline.builder(SEARCH, (invocation) -> {
				if (invocation.argument("q").equals("bad")) {
					throw new IOException("no index");
				}
				return "found";
			}).observers(observers).build();
			pipeline.call(call("s1", "ok"));
			assertThatExceptionOfType(IOException.class).isThrownBy(() -> pipeline.call(call(null, "bad")));
		}
		assertThat(seen).containsExactly("s1|search|{q=ok}|found|null", "null|search|{q=bad}|null|no index");
	}

	@Test
	void observersAndLearningObserversGetARichResultAsTheCallsResult() throws Exception {
		ToolContents chart = ToolContents.of(ToolContent.text("chart"), ToolContent.image(new byte[10], "image/png"));
		List<Object> learned = new CopyOnWriteArrayList<>();
		List<ToolCallRecord> records = new CopyOnWriteArrayList<>();
		LearningObserver observer = (sessionKey, toolName, params, result, error) -> learned.add(result);
		ToolCallObserver recorder = new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		};
		try (ToolCallObservers observers = ToolCallObservers.builder()
			.observer(LearningObserverAdapter.synchronous(List.of(observer)))
			.observer(recorder)
			.build()) {
			ToolPipeline.builder(SEARCH, (invocation) -> chart).observers(observers).build().call(call("s1", "x"));
		}
		assertThat(learned).containsExactly(chart);
		assertThat(records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.SUCCEEDED);
			assertThat(record.result()).isSameAs(chart);
		});
	}

	@Test
	void isAsynchronousByDefaultAndNeverFailsTheCall() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch delivered = new CountDownLatch(2);
		LearningObserver slowAndBroken = (sessionKey, toolName, params, result, error) -> {
			try {
				release.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			delivered.countDown();
			throw new IllegalStateException("observer bug");
		};
		LearningObserver afterIt = (sessionKey, toolName, params, result, error) -> delivered.countDown();
		LearningObserverAdapter adapter = LearningObserverAdapter.of(slowAndBroken, afterIt);
		assertThat(adapter.synchronous()).isFalse();
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(adapter).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(SEARCH, (invocation) -> "found").observers(observers).build();
			assertThat(pipeline.call(call("s1", "x"))).as("returns while the observer is still blocked")
				.isEqualTo("found");
			release.countDown();
			assertThat(delivered.await(10, TimeUnit.SECONDS)).as("the second observer still runs").isTrue();
			observers.close();
			assertThat(observers.observerFailures()).isOne();
		}
	}

	@Test
	void errorPatternStoreLearnsFromDeniedCalls() throws Exception {
		ErrorPatternStore store = ErrorPatternStore.builder().build();
		try (ToolCallObservers observers = ToolCallObservers.builder()
			.observer(LearningObserverAdapter.synchronous(List.of(store)))
			.build()) {
			ToolPipeline pipeline = ToolPipeline.builder(SEARCH, (invocation) -> "found")
				.middleware((tool, next) -> (invocation) -> {
					throw new ToolDeniedException(tool.name(), "policy", "not on the allow list");
				})
				.observers(observers)
				.build();
			assertThatExceptionOfType(ToolDeniedException.class).isThrownBy(() -> pipeline.call(call("s1", "x")));
		}
		assertThat(store.patternsOf("search")).singleElement()
			.satisfies((pattern) -> assertThat(pattern.category()).isEqualTo(ErrorCategory.PERMISSION));
	}

	private static ToolInvocation call(String session, String query) {
		return ToolInvocation.builder(SEARCH).sessionId(session).arguments(Map.of("q", query)).build();
	}

}
