package dev.agentmiddleware.autoconfigure.recovery;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.timeout.ToolTimeoutAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.recovery.CrashRecoveryMiddleware;
import dev.agentmiddleware.recovery.ToolSessionReset;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolSessionCrashedException;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;

class CrashRecoveryAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, CrashRecoveryAutoConfiguration.class))
		.withUserConfiguration(BrowserConfiguration.class);

	@Test
	void browserToolsGetCrashRecoveryAndOthersDoNot() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(CrashRecoveryMiddleware.class);
			assertThat(layers(context, "click_button")).containsExactly("crash-recovery", "click_button");
			assertThat(layers(context, "read_file")).containsExactly("read_file");
		});
	}

	@Test
	void aCrashResetsTheSessionAndTheRetryAnswers() {
		this.contextRunner.withUserConfiguration(ResetConfiguration.class).run((context) -> {
			context.getBean(BrowserTools.class).crashTimes(1);
			assertThat(clickButton(context)).isEqualTo("clicked #buy");
			ResetConfiguration reset = context.getBean(ResetConfiguration.class);
			assertThat(reset.resets).containsExactly("s1: browser died");
			assertThat(reset.events).containsExactly("CRASH_RECOVERED click_button");
			assertThat(context.getBean(BrowserTools.class).clicks()).isEqualTo(2);
		});
	}

	@Test
	void aSecondCrashGivesUpAfterOneReset() {
		this.contextRunner.withUserConfiguration(ResetConfiguration.class).run((context) -> {
			context.getBean(BrowserTools.class).crashTimes(2);
			assertThat(clickButton(context))
				.isEqualTo("Tool 'click_button' crashed again after its session was reset; giving up");
			assertThat(context.getBean(ResetConfiguration.class).resets).hasSize(1);
			assertThat(context.getBean(BrowserTools.class).clicks()).isEqualTo(2);
		});
	}

	@Test
	void anUncheckedExceptionOfABrowserToolIsACrashByDefault() {
		this.contextRunner.withUserConfiguration(ResetConfiguration.class).run((context) -> {
			context.getBean(BrowserTools.class).crashTimes(1, new IllegalStateException("target closed"));
			assertThat(clickButton(context)).isEqualTo("clicked #buy");
			assertThat(context.getBean(ResetConfiguration.class).resets).hasSize(1);
		});
		this.contextRunner.withUserConfiguration(ResetConfiguration.class)
			.withPropertyValues("agent.middleware.crash-recovery.defaults.any-runtime-exception-is-crash=false")
			.run((context) -> {
				context.getBean(BrowserTools.class).crashTimes(1, new IllegalStateException("target closed"));
				assertThat(clickButton(context))
					.isEqualTo("Tool 'click_button' failed: IllegalStateException: target closed");
				assertThat(context.getBean(ResetConfiguration.class).resets).isEmpty();
			});
	}

	@Test
	void withoutAResetBeanACrashBecomesACleanError() {
		this.contextRunner.run((context) -> {
			context.getBean(BrowserTools.class).crashTimes(1);
			assertThat(clickButton(context)).isEqualTo("Tool 'click_button' crashed and no session reset is "
					+ "configured, so it was not retried; try again later");
			assertThat(context.getBean(BrowserTools.class).clicks()).isEqualTo(1);
		});
	}

	@Test
	void toolsAreAlsoChosenByNamePatternAndTagsCanBeChanged() {
		this.contextRunner
			.withPropertyValues("agent.middleware.crash-recovery.tags=",
					"agent.middleware.crash-recovery.tool-name-patterns=read_*")
			.run((context) -> {
				assertThat(layers(context, "click_button")).containsExactly("click_button");
				assertThat(layers(context, "read_file")).containsExactly("crash-recovery", "read_file");
			});
	}

	@Test
	void perToolEnabledForcesRecoveryOnOrOff() {
		this.contextRunner
			.withPropertyValues("agent.middleware.crash-recovery.tools.click_button.enabled=false",
					"agent.middleware.crash-recovery.tools.read-file.enabled=true")
			.run((context) -> {
				assertThat(layers(context, "click_button")).containsExactly("click_button");
				assertThat(layers(context, "read_file")).containsExactly("crash-recovery", "read_file");
			});
	}

	@Test
	void perToolOverridesMergeWithTheDefaultsFieldByField() {
		this.contextRunner.withUserConfiguration(ResetConfiguration.class)
			.withPropertyValues("agent.middleware.crash-recovery.defaults.any-runtime-exception-is-crash=true",
					"agent.middleware.crash-recovery.tools.read_file.enabled=true",
					"agent.middleware.crash-recovery.tools.click_button.any-runtime-exception-is-crash=false",
					"agent.middleware.crash-recovery.tools.click_button.crash-exceptions=java.io.UncheckedIOException")
			.run((context) -> {
				BrowserTools tools = context.getBean(BrowserTools.class);
				tools.failReads(1);
				assertThat(callback(context, "read_file").call("{\"path\":\"a.txt\"}"))
					.as("read_file inherits any-runtime-exception-is-crash")
					.isEqualTo("contents of a.txt");
				tools.crashTimes(1, new IllegalStateException("element not found"));
				assertThat(clickButton(context)).as("click_button turned it off")
					.isEqualTo("Tool 'click_button' failed: IllegalStateException: element not found");
				tools.crashTimes(1, new java.io.UncheckedIOException(new java.io.IOException("websocket closed")));
				assertThat(clickButton(context)).as("click_button's own crash exception").isEqualTo("clicked #buy");
				assertThat(context.getBean(ResetConfiguration.class).resets).hasSize(2);
			});
	}

	@Test
	void anUnknownCrashExceptionClassFailsStartupNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("agent.middleware.crash-recovery.defaults.crash-exceptions=com.example.Nope")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining(
						"Invalid configuration property 'agent.middleware.crash-recovery.defaults.crash-exceptions': "
								+ "crashExceptions names the class 'com.example.Nope', which cannot be loaded");
			});
		this.contextRunner
			.withPropertyValues("agent.middleware.crash-recovery.tools.click_button.crash-exceptions=java.lang.String")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.crash-recovery.tools.click_button.crash-exceptions")
					.hasMessageContaining("not an exception type");
			});
	}

	@Test
	void anUnknownToolKeyFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.crash-recovery.tools.click-buton.enabled=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.crash-recovery.tools.click-buton");
			});
	}

	@Test
	void theOrderCanBeChangedInProperties() {
		this.contextRunner.withUserConfiguration(ProbeConfiguration.class)
			.run((context) -> assertThat(layers(context, "click_button")).containsExactly("crash-recovery", "probe",
					"click_button"));
		this.contextRunner.withUserConfiguration(ProbeConfiguration.class)
			.withPropertyValues("agent.middleware.crash-recovery.order=1000")
			.run((context) -> assertThat(layers(context, "click_button")).containsExactly("probe", "crash-recovery",
					"click_button"));
	}

	@Test
	void runsInsideTheTimeoutSoBothAttemptsShareOneTimeout() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(ToolTimeoutAutoConfiguration.class))
			.withUserConfiguration(ResetConfiguration.class)
			.withPropertyValues("agent.middleware.timeout.tools.click_button.timeout=1m")
			.run((context) -> {
				assertThat(layers(context, "click_button")).containsExactly("timeout", "crash-recovery",
						"click_button");
				context.getBean(BrowserTools.class).crashTimes(1);
				assertThat(clickButton(context)).isEqualTo("clicked #buy");
			});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.crash-recovery.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(CrashRecoveryMiddleware.class);
			assertThat(layers(context, "click_button")).containsExactly("click_button");
		});
	}

	@Test
	void backsOffWhenTheUserDefinesTheMiddleware() {
		this.contextRunner
			.withBean("userRecovery", CrashRecoveryMiddleware.class,
					() -> CrashRecoveryMiddleware.builder().policies((tool) -> null).build())
			.run((context) -> {
				assertThat(context).hasSingleBean(CrashRecoveryMiddleware.class).hasBean("userRecovery");
				assertThat(layers(context, "click_button")).containsExactly("click_button");
			});
	}

	private static List<String> layers(AssertableApplicationContext context, String tool) {
		return context.getBean(AgentToolRegistry.class).get(tool).pipeline().layers();
	}

	private static String clickButton(AssertableApplicationContext context) {
		return callback(context, "click_button").call("{\"selector\":\"#buy\"}",
				new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s1")));
	}

	private static ToolCallback callback(AssertableApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	public static class BrowserTools {

		private final AtomicInteger clicks = new AtomicInteger();

		private final AtomicInteger crashesLeft = new AtomicInteger();

		private final AtomicInteger readFailuresLeft = new AtomicInteger();

		private volatile RuntimeException crash = new ToolSessionCrashedException("browser died");

		public void crashTimes(int times) {
			crashTimes(times, new ToolSessionCrashedException("browser died"));
		}

		public void crashTimes(int times, RuntimeException crash) {
			this.crash = crash;
			this.crashesLeft.set(times);
		}

		public void failReads(int times) {
			this.readFailuresLeft.set(times);
		}

		public int clicks() {
			return this.clicks.get();
		}

		@AgentTool(description = "Clicks a button", tags = "browser")
		public String clickButton(String selector) {
			this.clicks.incrementAndGet();
			if (this.crashesLeft.getAndDecrement() > 0) {
				throw this.crash;
			}
			return "clicked " + selector;
		}

		@AgentTool(description = "Reads a file", readOnly = true)
		public String readFile(String path) {
			if (this.readFailuresLeft.getAndDecrement() > 0) {
				throw new IllegalStateException("disk hiccup");
			}
			return "contents of " + path;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BrowserConfiguration {

		@Bean
		BrowserTools browserTools() {
			return new BrowserTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ResetConfiguration {

		final List<String> resets = new CopyOnWriteArrayList<>();

		final List<String> events = new CopyOnWriteArrayList<>();

		@Bean
		ToolSessionReset browserSessionReset() {
			return (invocation, crash) -> this.resets.add(invocation.sessionId() + ": " + crash.getMessage());
		}

		@Bean
		MiddlewareMetrics recordingMetrics() {
			return (event, tool) -> this.events.add(event + " " + tool);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ProbeConfiguration {

		@Bean
		@Order(950)
		ToolMiddleware probe() {
			return ToolMiddleware.named("probe", (tool, next) -> next::handle);
		}

	}

}
