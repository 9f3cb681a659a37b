package dev.agentmiddleware.autoconfigure.timeout;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.timeout.TimeoutMiddleware;
import dev.agentmiddleware.timeout.TimeoutPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;

class ToolTimeoutAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ToolTimeoutAutoConfiguration.class))
		.withUserConfiguration(BrowserConfiguration.class);

	private final ExecutorService callers = Executors.newCachedThreadPool();

	@AfterEach
	void stopCallers() {
		this.callers.shutdownNow();
	}

	@Test
	void toolsWithATimeoutGetTheTimeoutLayerAndOthersDoNot() {
		this.contextRunner.withPropertyValues("agent.middleware.timeout.tools.open-page.timeout=5s").run((context) -> {
			assertThat(context).hasSingleBean(TimeoutMiddleware.class);
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("open_page").pipeline().layers()).containsExactly("timeout", "open_page");
			assertThat(registry.get("read_file").pipeline().layers()).containsExactly("read_file");
		});
	}

	@Test
	void withoutAnyTimeoutNoToolIsWrapped() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(TimeoutMiddleware.class);
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("open_page").pipeline().layers()).containsExactly("open_page");
			assertThat(registry.get("read_file").pipeline().layers()).containsExactly("read_file");
		});
	}

	@Test
	void aDefaultTimeoutAppliesToEveryToolAndZeroExemptsOne() {
		this.contextRunner
			.withPropertyValues("agent.middleware.timeout.defaults.timeout=5s",
					"agent.middleware.timeout.tools.read_file.timeout=0")
			.run((context) -> {
				AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
				assertThat(registry.get("open_page").pipeline().layers()).containsExactly("timeout", "open_page");
				assertThat(registry.get("read_file").pipeline().layers()).containsExactly("read_file");
			});
	}

	@Test
	void enabledFalseExemptsAToolFromTheDefaultTimeout() {
		this.contextRunner
			.withPropertyValues("agent.middleware.timeout.defaults.timeout=5s",
					"agent.middleware.timeout.tools.read_file.enabled=false")
			.run((context) -> {
				AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
				assertThat(registry.get("open_page").pipeline().layers()).containsExactly("timeout", "open_page");
				assertThat(registry.get("read_file").pipeline().layers()).containsExactly("read_file");
			});
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void zeroStillExemptsAToolButWarnsThatItIsDeprecated(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("agent.middleware.timeout.defaults.timeout=5s",
					"agent.middleware.timeout.tools.read-file.timeout=0")
			.run((context) -> assertThat(output)
				.contains("agent.middleware.timeout.tools.read-file.timeout=0 is " + "deprecated")
				.contains("set agent.middleware.timeout.tools.read-file.enabled=false instead"));
	}

	@Test
	void aPerToolTimeoutOverridesTheDefault() {
		this.contextRunner
			.withPropertyValues("agent.middleware.timeout.defaults.timeout=1m",
					"agent.middleware.timeout.tools.open_page.timeout=100ms")
			.run((context) -> {
				ToolTimeoutProperties properties = context.getBean(ToolTimeoutProperties.class);
				assertThat(properties.getTools().values()).singleElement()
					.satisfies((settings) -> assertThat(settings.withDefaults(properties.getDefaults()).getTimeout())
						.hasMillis(100));
				String text = openPage(context);
				assertThat(text)
					.isEqualTo("Tool 'open_page' timed out after 100ms; try again later or with a smaller request");
			});
	}

	@Test
	void aTimedToolThroughItsToolCallbackReturnsTheTimeoutTextAndIsInterrupted() {
		this.contextRunner.withPropertyValues("agent.middleware.timeout.tools.open_page.timeout=100ms")
			.run((context) -> {
				BrowserTools tools = context.getBean(BrowserTools.class);
				assertThat(openPage(context))
					.isEqualTo("Tool 'open_page' timed out after 100ms; try again later or with a smaller request");
				assertThat(tools.interrupted().await(5, TimeUnit.SECONDS)).isTrue();
			});
	}

	@Test
	void aFastTimedToolAnswersNormally() {
		this.contextRunner.withPropertyValues("agent.middleware.timeout.defaults.timeout=1m").run((context) -> {
			ToolCallback readFile = callback(context, "read_file");
			assertThat(readFile.call("{\"path\":\"notes.txt\"}")).isEqualTo("contents of notes.txt");
		});
	}

	@Test
	void theTimeoutThreadsStopWhenTheContextCloses() {
		this.contextRunner.withPropertyValues("agent.middleware.timeout.tools.open_page.timeout=1m").run((context) -> {
			BrowserTools tools = context.getBean(BrowserTools.class);
			Future<String> call = this.callers.submit(() -> openPage(context));
			assertThat(tools.started().await(5, TimeUnit.SECONDS)).isTrue();
			context.close();
			assertThat(tools.interrupted().await(5, TimeUnit.SECONDS)).as("the running tool was interrupted").isTrue();
			assertThat(call.get(5, TimeUnit.SECONDS)).contains("open_page", "InterruptedException");
		});
	}

	@Test
	void theThreadAndQueueLimitsApply() {
		this.contextRunner
			.withPropertyValues("agent.middleware.timeout.tools.open_page.timeout=1m",
					"agent.middleware.timeout.max-threads=1", "agent.middleware.timeout.queue-capacity=0")
			.run((context) -> {
				BrowserTools tools = context.getBean(BrowserTools.class);
				Future<String> first = this.callers.submit(() -> openPage(context));
				assertThat(tools.started().await(5, TimeUnit.SECONDS)).isTrue();
				assertThat(openPage(context)).isEqualTo("Tool 'open_page' was not run: all 1 threads for timed tool "
						+ "calls are busy and 0 calls are waiting; try again shortly");
				tools.release().countDown();
				assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("opened https://example.org");
			});
	}

	@Test
	void theOrderCanBeChangedInProperties() {
		this.contextRunner.withUserConfiguration(ProbeConfiguration.class)
			.withPropertyValues("agent.middleware.timeout.tools.open_page.timeout=5s")
			.run((context) -> assertThat(context.getBean(AgentToolRegistry.class).get("open_page").pipeline().layers())
				.containsExactly("timeout", "probe", "open_page"));
		this.contextRunner.withUserConfiguration(ProbeConfiguration.class)
			.withPropertyValues("agent.middleware.timeout.tools.open_page.timeout=5s",
					"agent.middleware.timeout.order=900")
			.run((context) -> assertThat(context.getBean(AgentToolRegistry.class).get("open_page").pipeline().layers())
				.containsExactly("probe", "timeout", "open_page"));
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner
			.withPropertyValues("agent.middleware.timeout.enabled=false",
					"agent.middleware.timeout.tools.open_page.timeout=5s")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(TimeoutMiddleware.class);
				assertThat(context.getBean(AgentToolRegistry.class).get("open_page").pipeline().layers())
					.containsExactly("open_page");
			});
	}

	@Test
	void backsOffWhenTheUserDefinesTheMiddleware() {
		this.contextRunner.withUserConfiguration(UserTimeoutConfiguration.class)
			.withPropertyValues("agent.middleware.timeout.tools.open_page.timeout=5s")
			.run((context) -> {
				assertThat(context).hasSingleBean(TimeoutMiddleware.class);
				assertThat(context.getBean(TimeoutMiddleware.class))
					.isSameAs(context.getBean(UserTimeoutConfiguration.class).timeout);
				assertThat(context.getBean(AgentToolRegistry.class).get("read_file").pipeline().layers())
					.containsExactly("timeout", "read_file");
			});
	}

	@Test
	void anUnknownToolKeyFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.timeout.tools.open-pgae.timeout=5s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.timeout.tools.open-pgae");
		});
	}

	@Test
	void aNegativeTimeoutFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.timeout.tools.open_page.timeout=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.timeout.tools.open_page.timeout")
				.hasMessageContaining("must not be negative");
		});
	}

	private static String openPage(AssertableApplicationContext context) {
		return callback(context, "open_page").call("{\"url\":\"https://example.org\"}",
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

		private final CountDownLatch started = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		private final CountDownLatch interrupted = new CountDownLatch(1);

		// Accessors, not fields: the bean is a proxy of this class.
		public CountDownLatch started() {
			return this.started;
		}

		public CountDownLatch release() {
			return this.release;
		}

		public CountDownLatch interrupted() {
			return this.interrupted;
		}

		@AgentTool(description = "Opens a page", tags = "browser")
		public String openPage(String url) throws InterruptedException {
			this.started.countDown();
			try {
				this.release.await();
				return "opened " + url;
			}
			catch (InterruptedException ex) {
				this.interrupted.countDown();
				throw ex;
			}
		}

		@AgentTool(description = "Reads a file", readOnly = true)
		public String readFile(String path) {
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
	static class ProbeConfiguration {

		@Bean
		@Order(850)
		ToolMiddleware probe() {
			return ToolMiddleware.named("probe", (tool, next) -> next::handle);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserTimeoutConfiguration {

		final TimeoutMiddleware timeout = TimeoutMiddleware.builder()
			.policies((tool) -> TimeoutPolicy.of(java.time.Duration.ofSeconds(1)))
			.build();

		@Bean
		TimeoutMiddleware userTimeout() {
			return this.timeout;
		}

	}

}
