package dev.agentmiddleware.autoconfigure.logging;

import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.logging.LoggingPolicy;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.testsupport.CapturedLog;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

class ToolLoggingAutoConfigurationTests {

	@RegisterExtension
	final CapturedLog capturedLog = CapturedLog.of(LoggingMiddleware.DEFAULT_LOGGER_NAME, Level.INFO);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ToolLoggingAutoConfiguration.class))
		.withUserConfiguration(AccountConfiguration.class);

	@Test
	void loggingWrapsEveryToolWithTheDefaults() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LoggingMiddleware.class);
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("login").pipeline().layers()).containsExactly("logging", "login");
			assertThat(registry.get("balance").pipeline().layers()).containsExactly("logging", "balance");
			assertThat(context.getBean(LoggingMiddleware.class).policies()).containsExactly(
					Map.entry("balance", LoggingPolicy.DEFAULT), Map.entry("login", LoggingPolicy.DEFAULT));
		});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.logging.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(LoggingMiddleware.class);
			assertThat(context.getBean(AgentToolRegistry.class).get("login").pipeline().layers())
				.containsExactly("login");
		});
	}

	@Test
	void backsOffWhenTheUserDefinesTheMiddleware() {
		this.contextRunner
			.withBean("customLogging", LoggingMiddleware.class, () -> LoggingMiddleware.builder().logger("x").build())
			.run((context) -> assertThat(context).hasSingleBean(LoggingMiddleware.class).hasBean("customLogging"));
	}

	@Test
	void perToolOverridesMergeWithTheDefaultsFieldByField() {
		this.contextRunner
			.withPropertyValues("agent.middleware.logging.defaults.max-value-length=50",
					"agent.middleware.logging.tools.login.log-results=false",
					"agent.middleware.logging.tools.BALANCE.enabled=false")
			.run((context) -> {
				assertThat(context.getBean(LoggingMiddleware.class).policies())
					.containsExactly(Map.entry("login", new LoggingPolicy(50, false)));
				assertThat(context.getBean(AgentToolRegistry.class).get("balance").pipeline().layers())
					.containsExactly("balance");
			});
	}

	@Test
	void anUnknownToolKeyFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.logging.tools.logn.enabled=false").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.logging.tools.logn");
		});
	}

	@Test
	void anInvalidSettingFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.logging.tools.login.max-value-length=2")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.logging.tools.login")
					.hasMessageContaining("maxValueLength");
			});
	}

	@Test
	void theOrderCanBeChangedInProperties() {
		this.contextRunner.withUserConfiguration(PolicyConfiguration.class)
			.run((context) -> assertThat(context.getBean(AgentToolRegistry.class).get("login").pipeline().layers())
				.containsExactly("logging", "policy", "login"));
		this.contextRunner.withUserConfiguration(PolicyConfiguration.class)
			.withPropertyValues("agent.middleware.logging.order=350")
			.run((context) -> assertThat(context.getBean(AgentToolRegistry.class).get("login").pipeline().layers())
				.containsExactly("policy", "logging", "login"));
	}

	@Test
	void aCallThroughTheToolCallbackLogsOneRedactedLine() {
		this.contextRunner.run((context) -> {
			callback(context, "login").call("{\"user\":\"alice\",\"password\":\"hunter2\"}",
					new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s1")));
			assertThat(this.capturedLog.events()).singleElement()
				.satisfies((event) -> assertThat(event.getFormattedMessage())
					.startsWith("tool=login session=" + SessionFingerprint.of("s1")
							+ " source=spring_ai outcome=succeeded duration_ms=")
					.contains("args={user=\"alice\", password=[REDACTED]}")
					.doesNotContain("hunter2"));
		});
	}

	@Test
	void secretKeysComeFromTheRedactionProperties() {
		this.contextRunner.withPropertyValues("agent.middleware.redaction.secret-keys=user").run((context) -> {
			callback(context, "login").call("{\"user\":\"alice\",\"password\":\"hunter2\"}");
			assertThat(this.capturedLog.events()).singleElement()
				.satisfies((event) -> assertThat(event.getFormattedMessage())
					.contains("args={user=[REDACTED], password=\"hunter2\"}"));
		});
	}

	@Test
	void linesGoToTheConfiguredLogger() {
		Logger custom = (Logger) LoggerFactory.getLogger("audit.tools");
		ListAppender<ILoggingEvent> customAppender = new ListAppender<>();
		customAppender.start();
		custom.addAppender(customAppender);
		custom.setLevel(Level.INFO);
		try {
			this.contextRunner.withPropertyValues("agent.middleware.logging.logger-name=audit.tools").run((context) -> {
				callback(context, "balance").call("{}");
				assertThat(customAppender.list).hasSize(1);
				assertThat(this.capturedLog.events()).isEmpty();
			});
		}
		finally {
			custom.detachAppender(customAppender);
			custom.setLevel(null);
		}
	}

	@Test
	void resultsAreLoggedAtDebugUnlessTheToolSaysOtherwise() {
		this.capturedLog.logger().setLevel(Level.DEBUG);
		this.contextRunner.withPropertyValues("agent.middleware.logging.tools.login.log-results=false")
			.run((context) -> {
				callback(context, "login").call("{\"user\":\"alice\",\"password\":\"pw\"}");
				callback(context, "balance").call("{}");
				assertThat(this.capturedLog.events()).extracting(ILoggingEvent::getFormattedMessage)
					.filteredOn((line) -> line.contains("result="))
					.singleElement()
					.satisfies((line) -> assertThat(line).startsWith("tool=balance").endsWith("result=42"));
			});
	}

	private static ToolCallback callback(ApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	@Configuration(proxyBeanMethods = false)
	static class AccountConfiguration {

		@Bean
		AccountTools accountTools() {
			return new AccountTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PolicyConfiguration {

		@Bean
		OrderedMiddleware policy() {
			return new OrderedMiddleware() {

				@Override
				public int order() {
					return 300;
				}

				@Override
				public String name() {
					return "policy";
				}

				@Override
				public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
					return (invocation) -> next.handle(invocation);
				}

			};
		}

	}

	public static class AccountTools {

		@AgentTool(description = "Logs in", safety = SafetyLevel.MODERATE)
		public String login(String user, String password) {
			return "welcome " + user;
		}

		@AgentTool(description = "Account balance", safety = SafetyLevel.SAFE, readOnly = true)
		public int balance() {
			return 42;
		}

	}

}
