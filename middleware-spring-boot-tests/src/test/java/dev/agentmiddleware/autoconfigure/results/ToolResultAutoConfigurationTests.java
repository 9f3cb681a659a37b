package dev.agentmiddleware.autoconfigure.results;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.results.ResultGuardMiddleware;
import dev.agentmiddleware.results.ResultGuardMiddleware.ToolResultRefusedException;
import dev.agentmiddleware.results.ResultPolicy;
import dev.agentmiddleware.results.ResultPolicy.OnExceed;
import dev.agentmiddleware.results.ToolResultGuard;
import dev.agentmiddleware.spring.AgentTool;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;

class ToolResultAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ToolResultAutoConfiguration.class))
		.withUserConfiguration(FileToolsConfiguration.class);

	@Test
	void everyToolGetsResultGuardsByDefaultThatRedactSecretsAndCutAt100000Characters() {
		this.contextRunner.run((context) -> {
			ResultGuardMiddleware middleware = context.getBean(ResultGuardMiddleware.class);
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("read_config").pipeline().layers()).containsExactly("results", "read_config");
			assertThat(middleware.policies()).containsEntry("read_config",
					new ResultPolicy(100_000, OnExceed.TRUNCATE, true));
			assertThat(call(context, "read_config")).isEqualTo("db.user=app\ndb.password=[REDACTED]\n");
			assertThat(call(context, "long_report")).hasSize(100_000).contains("… [cut: ");
		});
	}

	@Test
	void javaCallersOfTheToolBeanGetTheGuardedResultToo() {
		this.contextRunner.withPropertyValues("agent.middleware.results.tools.long-report.max-chars=300")
			.run((context) -> {
				FileTools tools = context.getBean(FileTools.class);
				assertThat(tools.readConfig()).isEqualTo("db.user=app\ndb.password=[REDACTED]\n");
				assertThat(tools.longReport()).hasSizeLessThanOrEqualTo(300).contains("… [cut: ");
			});
	}

	@Test
	void theDefaultLimitAndAPerToolOverrideApply() {
		this.contextRunner
			.withPropertyValues("agent.middleware.results.defaults.max-chars=1000",
					"agent.middleware.results.tools.long-report.max-chars=200")
			.run((context) -> {
				assertThat(context.getBean(ResultGuardMiddleware.class).policies())
					.containsEntry("read_config", new ResultPolicy(1000, OnExceed.TRUNCATE, true))
					.containsEntry("long_report", new ResultPolicy(200, OnExceed.TRUNCATE, true));
				assertThat(call(context, "long_report")).hasSizeLessThanOrEqualTo(200)
					.endsWith("more characters; the tool's result is longer than its limit of 200 characters]");
			});
	}

	@Test
	void maxBinarySizeLimitsTheBinaryDataOfRichResultsPerTool() {
		this.contextRunner.withPropertyValues("agent.middleware.results.tools.read-config.max-binary-size=1KB")
			.run((context) -> assertThat(context.getBean(ResultGuardMiddleware.class).policies())
				.containsEntry("read_config", new ResultPolicy(100_000, OnExceed.TRUNCATE, true, List.of(), 1024))
				.containsEntry("long_report",
						new ResultPolicy(100_000, OnExceed.TRUNCATE, true, List.of(), 5L * 1024 * 1024)));
	}

	@Test
	void aToolConfiguredToRefuseALongResultAnswersWithTheRefusal() {
		this.contextRunner
			.withPropertyValues("agent.middleware.results.tools.long-report.max-chars=200",
					"agent.middleware.results.tools.long-report.on-exceed=refuse")
			.run((context) -> {
				assertThat(call(context, "long_report")).contains("long_report")
					.contains("refused by results: its result has 240,000 characters, more than its limit of 200")
					.doesNotContain("lorem");
			});
	}

	@Test
	void redactionCanBeTurnedOffForOneTool() {
		this.contextRunner.withPropertyValues("agent.middleware.results.tools.read_config.redact-secrets=false")
			.run((context) -> {
				assertThat(call(context, "read_config")).isEqualTo("db.user=app\ndb.password=hunter2\n");
				assertThat(context.getBean(ResultGuardMiddleware.class).policies().get("long_report").redactSecrets())
					.isTrue();
			});
	}

	@Test
	void aToolCanBeLeftOutOfTheGuards() {
		this.contextRunner.withPropertyValues("agent.middleware.results.tools.read_config.enabled=false")
			.run((context) -> assertThat(
					context.getBean(AgentToolRegistry.class).get("read_config").pipeline().layers())
				.containsExactly("read_config"));
	}

	@Test
	void userGuardsRunInTheirOrderAndCanRefuse() {
		this.contextRunner.withUserConfiguration(GuardsConfiguration.class).run((context) -> {
			assertThat(context.getBean(ResultGuardMiddleware.class).guards()).extracting(ToolResultGuard::name)
				.containsExactly("first", "no-passwords-at-all");
			assertThat(call(context, "read_config")).startsWith(
					"The result of tool 'read_config' was refused by no-passwords-at-all: it mentions a password");
		});
	}

	@Test
	void redactionsCutsAndRefusalsAreCounted() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class)
			.withPropertyValues("agent.middleware.results.tools.long-report.max-chars=200")
			.run((context) -> {
				call(context, "read_config");
				call(context, "long_report");
				Map<String, Integer> counted = context.getBean(MetricsConfiguration.class).counted;
				assertThat(counted).containsEntry(MiddlewareEvent.RESULT_REDACTED + ":read_config", 1)
					.containsEntry(MiddlewareEvent.RESULT_TRUNCATED + ":long_report", 1);
			});
	}

	@Test
	void anUnknownToolNameFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.results.tools.read-confg.max-chars=10")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.results.tools.read-confg");
			});
	}

	@Test
	void aNegativeLimitFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.results.tools.read_config.max-chars=-5")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.results.tools.read_config.max-chars")
					.hasMessageContaining("maxChars must be at least 0");
			});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.results.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ResultGuardMiddleware.class);
			assertThat(call(context, "read_config")).contains("hunter2");
		});
	}

	private static String call(AssertableApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback.call("{}");
			}
		}
		throw new AssertionError("no tool " + name);
	}

	@Configuration(proxyBeanMethods = false)
	static class FileToolsConfiguration {

		@Bean
		FileTools fileTools() {
			return new FileTools();
		}

	}

	public static class FileTools {

		@AgentTool(description = "Reads the configuration", readOnly = true)
		public String readConfig() {
			return "db.user=app\ndb.password=hunter2\n";
		}

		@AgentTool(description = "Writes a long report", readOnly = true)
		public String longReport() {
			return "lorem ipsum ".repeat(20_000);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class GuardsConfiguration {

		@Bean
		@Order(2)
		ToolResultGuard noPasswordsAtAll() {
			return new ToolResultGuard() {
				@Override
				public dev.agentmiddleware.results.ToolResultGuard.ResultContent check(
						dev.agentmiddleware.tool.ToolInvocation invocation,
						dev.agentmiddleware.results.ToolResultGuard.ResultContent result) {
					if (result.text().contains("password")) {
						throw new ToolResultRefusedException(invocation.toolName(), name(), "it mentions a password");
					}
					return result;
				}

				@Override
				public String name() {
					return "no-passwords-at-all";
				}
			};
		}

		@Bean
		@Order(1)
		ToolResultGuard first() {
			return new ToolResultGuard() {
				@Override
				public dev.agentmiddleware.results.ToolResultGuard.ResultContent check(
						dev.agentmiddleware.tool.ToolInvocation invocation,
						dev.agentmiddleware.results.ToolResultGuard.ResultContent result) {
					return result;
				}

				@Override
				public String name() {
					return "first";
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MetricsConfiguration {

		final Map<String, Integer> counted = new ConcurrentHashMap<>();

		@Bean
		MiddlewareMetrics countingMetrics() {
			return (event, tool) -> this.counted.merge(event + ":" + tool, 1, Integer::sum);
		}

	}

}
