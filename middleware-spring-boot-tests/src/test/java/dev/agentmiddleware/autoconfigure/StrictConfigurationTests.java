package dev.agentmiddleware.autoconfigure;

import dev.agentmiddleware.autoconfigure.mcp.McpApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import dev.agentmiddleware.autoconfigure.authorization.AuthorizationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.edge.EdgeGuardAutoConfiguration;
import dev.agentmiddleware.autoconfigure.learning.LearningAutoConfiguration;
import dev.agentmiddleware.autoconfigure.logging.ToolLoggingAutoConfiguration;
import dev.agentmiddleware.autoconfigure.mcp.AgentMcpServerAutoConfiguration;
import dev.agentmiddleware.autoconfigure.observation.ToolObservationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.recovery.CrashRecoveryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.results.ToolResultAutoConfiguration;
import dev.agentmiddleware.autoconfigure.retry.ToolRetryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentChatClientAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.timeout.ToolTimeoutAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.spring.AgentTool;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every section of {@code agent.middleware} refuses an unknown key and an invalid value,
 * and the failure report names the property as written, the value, what is allowed and
 * the near miss. The sections come from the configuration metadata: a section without a
 * row here fails {@link #everySectionOfTheMetadataHasARow}.
 */
class StrictConfigurationTests {

	/**
	 * One bad key and one bad value per section, with what the report must say about
	 * each.
	 */
	private static final Map<String, List<Row>> ROWS = new LinkedHashMap<>();

	static {
		section("agent.middleware", key("agent.middleware.arguments.max-dept=3", "Did you mean 'max-depth'?"),
				value("agent.middleware.arguments.max-depth=0", "must be 1 or more"));
		section("agent.middleware.approval", key("agent.middleware.approval.polcy=all", "Did you mean 'policy'?"),
				value("agent.middleware.approval.policy=al", "'al' is not one of none, dangerous, all, configured",
						"Did you mean 'all'?"),
				value("agent.middleware.approval.timeout=-5s", "must be longer than zero"),
				value("agent.middleware.approval.store.poll-interval=0ms", "must be longer than zero"),
				value("agent.middleware.approval.tools.refund-order.enabled=maybe", "'maybe' is not true or false"),
				value("agent.middleware.approval.web.public-url=ftp://agents.example.com",
						"must be an absolute http: or https: URL"));
		section("agent.middleware.cache", key("agent.middleware.cache.defaults.tll=1m", "Did you mean 'ttl'?"),
				value("agent.middleware.cache.defaults.ttl=-1m", "ttl must be positive"));
		section("agent.middleware.authorization",
				key("agent.middleware.authorization.defaults.authoritie=ROLE_X", "Did you mean 'authorities'?"),
				value("agent.middleware.authorization.enabled=maybe", "'maybe' is not true or false"),
				value("agent.middleware.authorization.tools.refund-order.deny-when[0].expression=#args.id ==",
						"it is no valid SpEL expression", "Correct the expression in "
								+ "'agent.middleware.authorization.tools.refund-order.deny-when[0].expression'"));
		section("agent.middleware.budget",
				key("agent.middleware.budget.max-tokens-per-thred=5", "Did you mean 'max-tokens-per-thread'?"),
				value("agent.middleware.budget.max-tokens-per-run=-1", "must be 0 or more"),
				value("agent.middleware.budget.max-cost-per-run=-0.5", "must not be negative"),
				value("agent.middleware.budget.max-cost-per-thread=2", "no price is configured"));
		section("agent.middleware.crash-recovery",
				key("agent.middleware.crash-recovery.tag=browser", "Did you mean 'tags'?"),
				value("agent.middleware.crash-recovery.defaults.crash-exceptions=com.example.NoSuchException",
						"cannot be loaded"));
		section("agent.middleware.edge",
				key("agent.middleware.edge.allowed-host=agent.example.com", "Did you mean 'allowed-hosts'?"),
				value("agent.middleware.edge.paths[0]=", "must not be empty"));
		section("agent.middleware.error-recovery",
				key("agent.middleware.error-recovery.enabeld=false", "Did you mean 'enabled'?"),
				value("agent.middleware.error-recovery.enabled=maybe", "'maybe' is not true or false"));
		section("agent.middleware.audit", key("agent.middleware.audit.retension=30d", "Did you mean 'retention'?"),
				value("agent.middleware.audit.batch-size=0", "must be 1 or more"),
				value("agent.middleware.audit.store.type=redis", "redis is a store for rate limits only"));
		section("agent.middleware.learning",
				key("agent.middleware.learning.max-pattern=5", "Did you mean 'max-patterns'?"),
				value("agent.middleware.learning.max-patterns=0", "must be 1 or more"));
		section("agent.middleware.logging",
				key("agent.middleware.logging.loger-name=tools", "Did you mean 'logger-name'?"),
				value("agent.middleware.logging.defaults.max-value-length=2", "must be at least 8"));
		section("agent.middleware.loop-guard",
				key("agent.middleware.loop-guard.max-iteratons=3", "Did you mean 'max-iterations'?"),
				value("agent.middleware.loop-guard.max-iterations=-1", "must be 0 or more"),
				value("agent.middleware.loop-guard.max-repeated-calls=-2", "must be 0 or more"));
		section("agent.middleware.mcp",
				key("agent.middleware.mcp.transport.max-session=3", "Did you mean 'max-sessions'?"),
				value("agent.middleware.mcp.transport.max-sessions=0", "must be 1 or more"),
				value("agent.middleware.mcp.progress-interval=0s", "must be longer than zero"));
		section("agent.middleware.observation",
				key("agent.middleware.observation.long-task-timr=true", "Did you mean 'long-task-timer'?"),
				value("agent.middleware.observation.long-task-timer=sometimes", "is not true or false"));
		section("agent.middleware.rate-limit",
				key("agent.middleware.rate-limit.max-tracked-key=5", "Did you mean 'max-tracked-keys'?"),
				value("agent.middleware.rate-limit.session-idle-timeout=0s", "must be longer than zero"));
		section("agent.middleware.results",
				key("agent.middleware.results.defaults.max-char=5000", "Did you mean 'max-chars'?"),
				value("agent.middleware.results.defaults.max-chars=-1", "maxChars must be at least 0"),
				value("agent.middleware.results.tools.lookup-order.on-exceed=cut", "'cut' is not one of"));
		section("agent.middleware.retry",
				key("agent.middleware.retry.defaults.max-attempt=2", "Did you mean 'max-attempts'?"),
				value("agent.middleware.retry.defaults.max-attempts=0", "must be at least 1"));
		section("agent.middleware.spring-ai",
				key("agent.middleware.spring-ai.chat-client.enable=false", "Did you mean 'enabled'?"),
				value("agent.middleware.spring-ai.tool-calling-manager.enabled=maybe", "is not true or false"));
		section("agent.middleware.threads",
				key("agent.middleware.threads.memory.max-thread=5", "Did you mean 'max-threads'?"),
				value("agent.middleware.threads.memory.max-threads=0", "must be 1 or more"),
				value("agent.middleware.threads.store.type=jdcb", "auto, memory, jdbc", "Did you mean 'jdbc'?"));
		section("agent.middleware.timeout", key("agent.middleware.timeout.max-thread=5", "Did you mean 'max-threads'?"),
				value("agent.middleware.timeout.max-threads=0", "must be 1 or more"));
		section("agent.middleware.todo", key("agent.middleware.todo.max-item=5", "Did you mean 'max-items'?"),
				value("agent.middleware.todo.max-items=-5", "must be 1 or more"));
	}

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentMiddlewareEndpointAutoConfiguration.class, AgentAutoConfiguration.class,
				ApprovalAutoConfiguration.class, JdbcStoresAutoConfiguration.class, ApprovalWebAutoConfiguration.class,
				McpApprovalAutoConfiguration.class, ToolCacheAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				CrashRecoveryAutoConfiguration.class, LearningAutoConfiguration.class,
				ToolLoggingAutoConfiguration.class, ToolObservationAutoConfiguration.class,
				ToolRateLimitAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				RedisRateLimiterStoreAutoConfiguration.class, ToolRetryAutoConfiguration.class,
				ToolResultAutoConfiguration.class, ThreadStoreAutoConfiguration.class,
				JdbcStoresAutoConfiguration.class, ToolTimeoutAutoConfiguration.class,
				AgentChatClientAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				AgentMcpServerAutoConfiguration.class, AgentToolAutoConfiguration.class,
				AuthorizationAutoConfiguration.class, EdgeGuardAutoConfiguration.class, AuditAutoConfiguration.class))
		.withUserConfiguration(OrderToolsConfiguration.class);

	@Test
	void everySectionOfTheMetadataHasARow() {
		assertThat(ROWS.keySet()).containsAll(PropertySections.onClassPath().types().keySet());
		ROWS.forEach((section, rows) -> {
			assertThat(rows).as(section).anyMatch((row) -> row.kind == Kind.KEY);
			assertThat(rows).as(section).anyMatch((row) -> row.kind == Kind.VALUE);
		});
	}

	@TestFactory
	Stream<DynamicTest> everyBadKeyAndEveryBadValueFailsStartupWithAReport() {
		return ROWS.values()
			.stream()
			.flatMap(List::stream)
			.map((row) -> DynamicTest.dynamicTest(row.kind + " " + row.property(), () -> {
				FailureAnalysis analysis = startAndAnalyze(row.assignment);
				assertThat(analysis.getDescription()).contains("Property: " + row.property())
					.contains("Value: \"" + row.value() + "\"");
				String report = analysis.getDescription() + "\n" + analysis.getAction();
				for (String expected : row.expected) {
					assertThat(report).contains(expected);
				}
			}));
	}

	@Test
	void aSectionWhoseFeatureIsOffStillRefusesUnknownKeys() {
		FailureAnalysis analysis = startAndAnalyze("agent.middleware.cache.enabled=false",
				"agent.middleware.cache.defaults.tll=1m");
		assertThat(analysis.getDescription()).contains("Property: agent.middleware.cache.defaults.tll");
		assertThat(analysis.getAction()).contains("Did you mean 'ttl'?");
	}

	@Test
	void anUnknownApprovalProviderIsReportedAtItsIndexWithASuggestion() {
		FailureAnalysis analysis = startAndAnalyze("agent.middleware.approval.providers=callback,quue");
		assertThat(analysis.getDescription()).contains("Property: agent.middleware.approval.providers[1]")
			.contains("Value: \"quue\"")
			.contains("Reason: no approval provider is named 'quue'");
		assertThat(analysis.getAction()).startsWith("Did you mean 'queue'?")
			.contains("callback, link, mcp-elicitation, queue");
	}

	@Test
	void aJdbcApprovalStoreWithoutADataSourceFailsStartupNamingTheFix() {
		FailureAnalysis analysis = startAndAnalyze("agent.middleware.approval.store.type=jdbc");
		assertThat(analysis.getDescription()).contains("Property: agent.middleware.approval.store.type")
			.contains("Value: \"jdbc\"")
			.contains("the JDBC approval store needs a DataSource");
		assertThat(analysis.getAction()).contains("spring-boot-starter-jdbc").contains("to auto or memory");
	}

	@Test
	void aJdbcAuditStoreWithoutADataSourceFailsStartupNamingTheFix() {
		FailureAnalysis analysis = startAndAnalyze("agent.middleware.audit.store.type=jdbc");
		assertThat(analysis.getDescription()).contains("Property: agent.middleware.audit.store.type")
			.contains("the JDBC audit store needs a DataSource");
	}

	@Test
	void anUnknownApprovalStoreTypeListsTheTypes() {
		FailureAnalysis analysis = startAndAnalyze("agent.middleware.approval.store.type=jdcb");
		assertThat(analysis.getDescription()).contains("Property: agent.middleware.approval.store.type")
			.contains("Value: \"jdcb\"");
		assertThat(analysis.getAction()).startsWith("Did you mean 'jdbc'?").contains("auto, memory, jdbc");
	}

	@TestFactory
	Stream<DynamicTest> aRedisStoreIsRefusedByEveryFeatureButRateLimits() {
		return Stream
			.of("agent.middleware.approval.store.type", "agent.middleware.threads.store.type",
					"agent.middleware.mcp.sessions.store.type", "agent.middleware.cache.store.type",
					"agent.middleware.cache.invalidation.type")
			.map((property) -> DynamicTest.dynamicTest(property, () -> {
				FailureAnalysis analysis = startAndAnalyze(property + "=redis");
				assertThat(analysis.getDescription()).contains("Property: " + property)
					.contains("Value: \"redis\"")
					.contains("Reason: redis is a store for rate limits only (agent.middleware.rate-limit.store.type)");
				assertThat(analysis.getAction()).isEqualTo("Set '" + property + "' to auto, memory or jdbc.");
			}));
	}

	@Test
	void anUnknownSensitiveToolIsReportedAtItsIndex() {
		FailureAnalysis analysis = startAndAnalyze("agent.middleware.approval.sensitive-tools[0]=refund_order",
				"agent.middleware.approval.sensitive-tools[1]=write_file");
		assertThat(analysis.getDescription()).contains("Property: agent.middleware.approval.sensitive-tools[1]")
			.contains("Value: \"write_file\"")
			.contains("Reason: no tool is named 'write_file'");
	}

	@Test
	void anAuthorizationRuleNamingAnUnknownParameterIsReportedAtItsExpression() {
		FailureAnalysis analysis = startAndAnalyze(
				"agent.middleware.authorization.tools.refund-order.deny-when[0].expression=#args.amount > 100",
				"agent.middleware.authorization.tools.refund-order.deny-when[0].reason=Refunds over 100 need a person.");
		assertThat(analysis.getDescription())
			.contains("Property: agent.middleware.authorization.tools.refund-order.deny-when[0].expression")
			.contains("Value: \"#args.amount > 100\"")
			.contains("Reason: tool 'refund_order' has no parameter 'amount'");
		assertThat(analysis.getAction()).contains("Name one of its parameters (id)");
	}

	@Test
	void validConfigurationOfEverySectionStarts() {
		this.contextRunner
			.withPropertyValues("agent.middleware.arguments.max-depth=8", "agent.middleware.approval.policy=all",
					"agent.middleware.approval.timeout=30s", "agent.middleware.loop-guard.max-iterations=0",
					"agent.middleware.todo.max-items=5", "agent.middleware.threads.memory.max-threads=10",
					"agent.middleware.cache.defaults.ttl=1m", "agent.middleware.retry.defaults.max-attempts=2",
					"agent.middleware.mcp.transport.max-sessions=3",
					"agent.middleware.spring-ai.chat-client.enabled=true",
					"agent.middleware.approval.sensitive-tools=refund_order")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private FailureAnalysis startAndAnalyze(String... properties) {
		AtomicReference<Environment> environment = new AtomicReference<>();
		AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
		this.contextRunner.withPropertyValues(properties)
			.withInitializer((context) -> environment.set(context.getEnvironment()))
			.run((context) -> {
				assertThat(context).hasFailed();
				analysis
					.set(new AgentMiddlewareFailureAnalyzer(environment.get()).analyze(context.getStartupFailure()));
				assertThat(analysis.get()).as("analysis of %s", context.getStartupFailure()).isNotNull();
			});
		return analysis.get();
	}

	private static void section(String prefix, Row... rows) {
		ROWS.put(prefix, new ArrayList<>(List.of(rows)));
	}

	private static Row key(String assignment, String... expected) {
		return new Row(Kind.KEY, assignment, expected);
	}

	private static Row value(String assignment, String... expected) {
		return new Row(Kind.VALUE, assignment, expected);
	}

	enum Kind {

		KEY, VALUE

	}

	record Row(Kind kind, String assignment, String... expected) {

		String property() {
			return this.assignment.substring(0, this.assignment.indexOf('='));
		}

		String value() {
			return this.assignment.substring(this.assignment.indexOf('=') + 1);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OrderToolsConfiguration {

		@Bean
		OrderTools orderTools() {
			return new OrderTools();
		}

	}

	public static class OrderTools {

		@AgentTool(readOnly = true)
		public String lookupOrder(String id) {
			return id;
		}

		@AgentTool
		public String refundOrder(String id) {
			return id;
		}

	}

}
