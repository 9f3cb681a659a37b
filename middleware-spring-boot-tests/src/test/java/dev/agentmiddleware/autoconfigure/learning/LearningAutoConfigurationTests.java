package dev.agentmiddleware.autoconfigure.learning;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.learning.ErrorCategory;
import dev.agentmiddleware.learning.ErrorPatternStore;
import dev.agentmiddleware.learning.ErrorPatternStore.ToolFailureStatistics;
import dev.agentmiddleware.learning.LearningObserver;
import dev.agentmiddleware.learning.LearningObserver.LearningObserverAdapter;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;

class LearningAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, LearningAutoConfiguration.class))
		.withUserConfiguration(FetchConfiguration.class);

	@Test
	void providesTheStoreTheAdapterAndTheEventPublisher() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ErrorPatternStore.class)
				.hasSingleBean(LearningObserverAdapter.class)
				.hasSingleBean(ToolCallEventPublisher.class);
			assertThat(context.getBean(LearningObserverAdapter.class).observers())
				.containsExactly(context.getBean(ErrorPatternStore.class));
			assertThat(context.getBean(LearningObserverAdapter.class).synchronous()).isFalse();
		});
	}

	@Test
	void errorPatternStoreLearnsFromCallsThroughTheChain() {
		this.contextRunner.run((context) -> {
			call(context, "fetch", "{\"url\":\"https://example.com/a/1\"}");
			call(context, "fetch", "{\"url\":\"https://example.com/b/22\"}");
			call(context, "fetch", "{\"url\":\"ok\"}");
			deliverObservedCalls(context);
			ErrorPatternStore store = context.getBean(ErrorPatternStore.class);
			assertThat(store.patternsOf("fetch")).singleElement().satisfies((pattern) -> {
				assertThat(pattern.pattern()).isEqualTo("Read timed out fetching <arg>");
				assertThat(pattern.category()).isEqualTo(ErrorCategory.TIMEOUT);
				assertThat(pattern.occurrences()).isEqualTo(2);
				assertThat(pattern.recoveries()).isOne();
			});
			assertThat(store.topFailingTools(5)).extracting(ToolFailureStatistics::tool).containsExactly("fetch");
		});
	}

	@Test
	void everyLearningObserverBeanIsCalledWithSessionToolParamsAndError() {
		this.contextRunner.withUserConfiguration(RecordingLearningConfiguration.class).run((context) -> {
			call(context, "fetch", "{\"url\":\"https://example.com/x\"}");
			deliverObservedCalls(context);
			assertThat(context.getBean(LearningObserverAdapter.class).observers()).hasSize(2);
			assertThat(context.getBean(RecordingLearningObserver.class).seen)
				.containsExactly("s1|fetch|{url=https://example.com/x}|null|IOException");
		});
	}

	@Test
	void eventListenerReceivesAnEventPerCall() {
		this.contextRunner.withUserConfiguration(ListenerConfiguration.class).run((context) -> {
			call(context, "fetch", "{\"url\":\"ok\"}");
			call(context, "fetch", "{\"url\":\"https://example.com\"}");
			deliverObservedCalls(context);
			List<ToolCallEvent> events = context.getBean(ToolCallListener.class).events;
			assertThat(events).extracting(ToolCallEvent::toolName).containsExactly("fetch", "fetch");
			assertThat(events).extracting(ToolCallEvent::outcome)
				.containsExactly(CallOutcome.SUCCEEDED, CallOutcome.FAILED);
			assertThat(events.get(0).getRecord().invocation().sessionId()).isEqualTo("s1");
			assertThat(events.get(0).getRecord().result()).isEqualTo("fetched ok");
			assertThat(events.get(1).getRecord().error()).isInstanceOf(IOException.class);
		});
	}

	@Test
	void eventsCanBeSwitchedOff() {
		this.contextRunner.withPropertyValues("agent.middleware.learning.publish-events=false")
			.withUserConfiguration(ListenerConfiguration.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ToolCallEventPublisher.class)
					.hasSingleBean(ErrorPatternStore.class);
				call(context, "fetch", "{\"url\":\"ok\"}");
				deliverObservedCalls(context);
				assertThat(context.getBean(ToolCallListener.class).events).isEmpty();
			});
	}

	@Test
	void maxPatternsBoundsTheStore() {
		this.contextRunner.withPropertyValues("agent.middleware.learning.max-patterns=2").run((context) -> {
			ErrorPatternStore store = context.getBean(ErrorPatternStore.class);
			for (String module : List.of("alpha", "beta", "gamma", "delta")) {
				store.onToolResult(null, "fetch", Map.of(), null, new IllegalStateException("no module " + module));
			}
			assertThat(store.size()).isEqualTo(2);
			assertThat(store.evictedPatterns()).isEqualTo(2);
		});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.learning.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ErrorPatternStore.class)
				.doesNotHaveBean(LearningObserverAdapter.class)
				.doesNotHaveBean(ToolCallEventPublisher.class);
			assertThat(context.getBean(ToolCallObservers.class).isEmpty()).isTrue();
		});
	}

	@Test
	void backsOffWhenUserDefinesTheStore() {
		this.contextRunner.withUserConfiguration(UserStoreConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(ErrorPatternStore.class);
			assertThat(context.getBean(ErrorPatternStore.class)).isSameAs(context.getBean("userStore"));
			assertThat(context.getBean(LearningObserverAdapter.class).observers())
				.containsExactly(context.getBean(ErrorPatternStore.class));
		});
	}

	@Test
	void backsOffWithoutTheToolMiddleware() {
		this.contextRunner.withPropertyValues("agent.middleware.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ErrorPatternStore.class));
	}

	private static String call(AssertableApplicationContext context, String tool, String json) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(tool)) {
				return callback.call(json, new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s1")));
			}
		}
		throw new AssertionError("no tool " + tool);
	}

	// Closing the observer tier delivers every queued record, so assertions need no
	// waiting.
	private static void deliverObservedCalls(AssertableApplicationContext context) {
		context.getBean(ToolCallObservers.class).close();
	}

	public static class FetchTools {

		@AgentTool(description = "Fetches a URL", safety = SafetyLevel.SAFE, readOnly = true)
		public String fetch(String url) throws IOException {
			if (url.startsWith("http")) {
				throw new IOException("Read timed out fetching " + url);
			}
			return "fetched " + url;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FetchConfiguration {

		@Bean
		FetchTools fetchTools() {
			return new FetchTools();
		}

	}

	static class RecordingLearningObserver implements LearningObserver {

		final List<String> seen = new CopyOnWriteArrayList<>();

		@Override
		public void onToolResult(@Nullable String sessionKey, String toolName, Map<String, @Nullable Object> params,
				@Nullable Object result, @Nullable Throwable error) {
			this.seen.add(sessionKey + "|" + toolName + "|" + params + "|" + result + "|"
					+ ((error != null) ? error.getClass().getSimpleName() : null));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingLearningConfiguration {

		@Bean
		RecordingLearningObserver recordingLearningObserver() {
			return new RecordingLearningObserver();
		}

	}

	static class ToolCallListener {

		final List<ToolCallEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void onToolCall(ToolCallEvent event) {
			this.events.add(event);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ListenerConfiguration {

		@Bean
		ToolCallListener toolCallListener() {
			return new ToolCallListener();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserStoreConfiguration {

		@Bean
		ErrorPatternStore userStore() {
			return ErrorPatternStore.builder().maxPatterns(7).build();
		}

	}

}
