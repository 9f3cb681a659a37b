package dev.agentmiddleware.autoconfigure.audit;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.agentmiddleware.audit.AuditQuery;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.audit.InMemoryAuditStore;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcAuditStore;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class AuditAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ToolRateLimitAutoConfiguration.class, AuditAutoConfiguration.class, JdbcStoresAutoConfiguration.class))
		.withUserConfiguration(SearchConfiguration.class)
		.withPropertyValues("agent.middleware.rate-limit.tools.search.limit-for-period=1",
				"agent.middleware.rate-limit.tools.search.limit-refresh-period=1h");

	@Test
	void everyCallOfTheChatClientAndJavaPathsLeavesOneRecordInMemory() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(AuditTrail.class).hasSingleBean(InMemoryAuditStore.class);
			ToolCallback search = callback(context, "search");
			ToolContext session = new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "conversation-secret"));
			search.call("{\"query\":\"a\"}", session);
			search.call("{\"query\":\"b\"}", session);
			context.getBean(SearchTools.class).lookup("word");
			List<AuditRecord> records = awaitRecords(context, 3);
			assertThat(records)
				.extracting(AuditRecord::tool, AuditRecord::source, AuditRecord::outcome, AuditRecord::decidedBy)
				.containsExactly(
						org.assertj.core.groups.Tuple.tuple("lookup", InvocationSource.JAVA, CallOutcome.SUCCEEDED,
								null),
						org.assertj.core.groups.Tuple.tuple("search", InvocationSource.SPRING_AI,
								CallOutcome.RATE_LIMITED, "rate-limit"),
						org.assertj.core.groups.Tuple.tuple("search", InvocationSource.SPRING_AI, CallOutcome.SUCCEEDED,
								null));
			assertThat(records.get(2).sessionFingerprint()).startsWith("sid-");
			assertThat(records)
				.allSatisfy((record) -> assertThat(record.toString()).doesNotContain("conversation-secret"));
			AuditEndpointContributor.AuditDescriptor section = (AuditEndpointContributor.AuditDescriptor) context
				.getBean(AuditEndpointContributor.class)
				.describe();
			assertThat(section.latest()).isEqualTo(records);
		});
	}

	@Test
	void aToolListedInIncludeArgumentsHasItsArgumentsRedacted() {
		this.contextRunner.withPropertyValues("agent.middleware.audit.include-arguments=search").run((context) -> {
			callback(context, "search").call("{\"query\":\"password=hunter2\"}");
			assertThat(awaitRecords(context, 1).get(0).arguments()).contains("query").doesNotContain("hunter2");
		});
	}

	@Test
	void onADataSourceTheRecordsGoToTheJdbcStore() {
		this.contextRunner.withUserConfiguration(DataSourceConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(JdbcAuditStore.class).doesNotHaveBean(InMemoryAuditStore.class);
			callback(context, "search").call("{\"query\":\"a\"}");
			assertThat(awaitRecords(context, 1).get(0).outcome()).isEqualTo(CallOutcome.SUCCEEDED);
		});
	}

	@Test
	void storeTypeMemoryKeepsTheRecordsInMemoryBesideADataSource() {
		this.contextRunner.withUserConfiguration(DataSourceConfiguration.class)
			.withPropertyValues("agent.middleware.audit.store.type=memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryAuditStore.class)
				.doesNotHaveBean(JdbcAuditStore.class));
	}

	@Test
	void countsWrittenRecordsInMicrometer() {
		this.contextRunner.run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean("auditTrailMeterBinder", MeterBinder.class).bindTo(registry);
			callback(context, "search").call("{\"query\":\"a\"}");
			await().until(() -> registry.get("agent.audit.records.written").functionCounter().count() == 1.0);
			assertThat(registry.get("agent.audit.write.failures").functionCounter().count()).isZero();
			assertThat(registry.get("agent.audit.records.dropped").functionCounter().count()).isZero();
		});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.audit.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(AuditTrail.class).doesNotHaveBean(AuditStore.class));
	}

	@Test
	void aRetentionThatIsNotPositiveFailsStartup() {
		this.contextRunner.withPropertyValues("agent.middleware.audit.retention=0s")
			.run((context) -> assertThat(context).hasFailed());
	}

	private static List<AuditRecord> awaitRecords(AssertableApplicationContext context, int count) {
		AuditStore store = context.getBean(AuditStore.class);
		await().until(() -> store.find(AuditQuery.all()).size() >= count);
		List<AuditRecord> records = store.find(AuditQuery.all());
		assertThat(records).hasSize(count);
		return records;
	}

	private static ToolCallback callback(AssertableApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	public static class SearchTools {

		@AgentTool(description = "Searches the web", safety = SafetyLevel.SAFE, readOnly = true)
		public String search(String query) {
			return "found " + query;
		}

		@AgentTool(description = "Looks a word up", safety = SafetyLevel.SAFE, readOnly = true)
		public String lookup(String word) {
			return word;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SearchConfiguration {

		@Bean
		SearchTools searchTools() {
			return new SearchTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DataSourceConfiguration {

		@Bean
		JdbcDataSource dataSource() {
			JdbcDataSource dataSource = new JdbcDataSource();
			dataSource.setURL("jdbc:h2:mem:audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
			return dataSource;
		}

	}

}
