package dev.agentmiddleware.autoconfigure.actuate;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpoint.AgentMiddlewareDescriptor;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpoint.AgentToolDescriptor;
import dev.agentmiddleware.autoconfigure.learning.LearningAutoConfiguration;
import dev.agentmiddleware.autoconfigure.learning.LearningEndpointContributor.LearningDescriptor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.learning.ErrorCategory;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AgentMiddlewareEndpointTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						LearningAutoConfiguration.class, AgentMiddlewareEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=agentmiddleware")
		.withUserConfiguration(AccountConfiguration.class);

	@Test
	void isAvailableOnlyWhenExposed() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(AgentMiddlewareEndpoint.class));
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(AgentMiddlewareEndpoint.class));
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.exclude=agentmiddleware")
			.run((context) -> assertThat(context).doesNotHaveBean(AgentMiddlewareEndpoint.class));
	}

	@Test
	void backsOffWithoutActuator() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(AgentMiddlewareEndpoint.class));
	}

	@Test
	void backsOffWhenUserDefinesTheEndpoint() {
		this.contextRunner.withUserConfiguration(UserEndpointConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(AgentMiddlewareEndpoint.class);
			assertThat(context.getBean(AgentMiddlewareEndpoint.class)).isSameAs(context.getBean("userEndpoint"));
		});
	}

	@Test
	void overviewListsEveryToolWithItsDescriptorAndChain() {
		this.contextRunner.withUserConfiguration(AuditConfiguration.class).run((context) -> {
			AgentMiddlewareDescriptor overview = context.getBean(AgentMiddlewareEndpoint.class).agentMiddleware();
			assertThat(overview.tools()).containsOnlyKeys("close_account", "get_balance");
			AgentToolDescriptor balance = overview.tools().get("get_balance");
			assertThat(balance.description()).isEqualTo("Balance of an account");
			assertThat(balance.safety()).isEqualTo(SafetyLevel.SAFE);
			assertThat(balance.readOnly()).isTrue();
			assertThat(balance.idempotent()).isTrue();
			assertThat(balance.tags()).containsExactly("accounts", "money");
			assertThat(balance.returnDirect()).isFalse();
			assertThat(balance.bean()).isEqualTo("accountTools");
			assertThat(balance.inputSchema()).isInstanceOfSatisfying(Map.class,
					(schema) -> assertThat(schema).containsEntry("type", "object").containsKey("properties"));
			assertThat(balance.chain()).containsExactly("audit", "get_balance");
			assertThat(balance.pipeline()).isEqualTo("get_balance → [audit, get_balance]");
			AgentToolDescriptor close = overview.tools().get("close_account");
			assertThat(close.safety()).isEqualTo(SafetyLevel.DANGEROUS);
			assertThat(close.returnDirect()).isTrue();
			assertThat(overview.observers().droppedRecords()).isZero();
			assertThat(overview.observers().observerFailures()).isZero();
		});
	}

	@Test
	void selectorDescribesOneToolAndNothingForAnUnknownName() {
		this.contextRunner.run((context) -> {
			AgentMiddlewareEndpoint endpoint = context.getBean(AgentMiddlewareEndpoint.class);
			AgentToolDescriptor balance = endpoint.tool("get_balance");
			assertThat(balance).isNotNull();
			assertThat(balance).isEqualTo(endpoint.agentMiddleware().tools().get("get_balance"));
			assertThat(endpoint.tool("no_such_tool")).isNull();
		});
	}

	@Test
	void selectorAcceptsAToolNameWrittenTheWayConfigurationAcceptsIt() {
		this.contextRunner.run((context) -> {
			AgentMiddlewareEndpoint endpoint = context.getBean(AgentMiddlewareEndpoint.class);
			AgentToolDescriptor balance = endpoint.tool("get_balance");
			assertThat(endpoint.tool("get-balance")).isEqualTo(balance);
			assertThat(endpoint.tool("GET_BALANCE")).isEqualTo(balance);
			assertThat(endpoint.tool("get-balances")).isNull();
		});
	}

	@Test
	void showsLearningStatisticsWithoutArgumentValues() {
		this.contextRunner.run((context) -> {
			AccountTools tools = context.getBean(AccountTools.class);
			for (String account : List.of("acct-4711-secret", "acct-0815-secret")) {
				assertThatExceptionOfType(IOException.class).isThrownBy(() -> tools.getBalance(account));
			}
			tools.getBalance("known");
			context.getBean(ToolCallObservers.class).close();
			AgentMiddlewareEndpoint endpoint = context.getBean(AgentMiddlewareEndpoint.class);
			AgentMiddlewareDescriptor overview = endpoint.agentMiddleware();
			assertThat(overview.sections()).containsOnlyKeys("learning");
			LearningDescriptor learning = (LearningDescriptor) overview.sections().get("learning");
			assertThat(learning.topFailingTools()).singleElement().satisfies((tool) -> {
				assertThat(tool.tool()).isEqualTo("get_balance");
				assertThat(tool.failures()).isEqualTo(2);
				assertThat(tool.recoveries()).isOne();
			});
			assertThat(learning.topPatterns()).singleElement().satisfies((pattern) -> {
				assertThat(pattern.pattern()).isEqualTo("Account <arg> is locked");
				assertThat(pattern.category()).isEqualTo(ErrorCategory.TOOL_ERROR);
			});
			assertThat(endpoint.tool("get_balance").settings()).containsOnlyKeys("learning");
			assertThat(endpoint.tool("close_account").settings()).as("never called").isEmpty();
			String json = JsonMapper.shared().writeValueAsString(overview);
			assertThat(json).contains("\"get_balance\"", "Account <arg> is locked", "\"recoveries\":1")
				.doesNotContain("4711", "0815", "secret\"");
		});
	}

	@Test
	void contributorsAddGlobalSectionsAndPerToolSettingsInOrder() {
		this.contextRunner.withUserConfiguration(ContributorConfiguration.class).run((context) -> {
			AgentMiddlewareEndpoint endpoint = context.getBean(AgentMiddlewareEndpoint.class);
			AgentMiddlewareDescriptor overview = endpoint.agentMiddleware();
			assertThat(overview.sections()).containsKeys("cache", "learning");
			assertThat(overview.sections().keySet()).startsWith("cache");
			assertThat(overview.sections()).containsEntry("cache", Map.of("hits", 3, "misses", 1));
			assertThat(overview.sections()).doesNotContainKey("quiet");
			assertThat(endpoint.tool("get_balance").settings()).containsEntry("cache", Map.of("ttl", "PT5M"));
			assertThat(endpoint.tool("close_account").settings()).as("cache does not apply").doesNotContainKey("cache");
		});
	}

	@Test
	void twoContributorsWithOneNameFailStartupNamingBoth() {
		this.contextRunner
			.withUserConfiguration(ContributorConfiguration.class, DuplicateContributorConfiguration.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Two agentmiddleware endpoint contributors are named 'cache'"));
	}

	@Test
	void backsOffWithoutTheToolMiddleware() {
		this.contextRunner.withPropertyValues("agent.middleware.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(AgentMiddlewareEndpoint.class));
	}

	public static class AccountTools {

		@AgentTool(description = "Balance of an account", safety = SafetyLevel.SAFE, readOnly = true, idempotent = true,
				tags = { "money", "accounts" })
		public String getBalance(String account) throws IOException {
			if (!account.equals("known")) {
				throw new IOException("Account " + account + " is locked");
			}
			return "42";
		}

		@AgentTool(description = "Closes an account", returnDirect = true)
		public String closeAccount(String account) {
			return "closed";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AccountConfiguration {

		@Bean
		AccountTools accountTools() {
			return new AccountTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AuditConfiguration {

		@Bean
		ToolMiddleware audit() {
			return ToolMiddleware.named("audit", (tool, next) -> next::handle);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserEndpointConfiguration {

		@Bean
		AgentMiddlewareEndpoint userEndpoint(AgentToolRegistry registry) {
			return new AgentMiddlewareEndpoint(registry, null, List.of());
		}

	}

	static class CacheContributor implements AgentMiddlewareEndpointContributor {

		@Override
		public String name() {
			return "cache";
		}

		@Override
		public Object describe() {
			return Map.of("hits", 3, "misses", 1);
		}

		@Override
		public @Nullable Object describeTool(RegisteredTool tool) {
			return tool.descriptor().readOnly() ? Map.of("ttl", "PT5M") : null;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ContributorConfiguration {

		@Bean
		@Order(-1)
		CacheContributor cacheContributor() {
			return new CacheContributor();
		}

		@Bean
		AgentMiddlewareEndpointContributor quietContributor() {
			return new AgentMiddlewareEndpointContributor() {

				@Override
				public String name() {
					return "quiet";
				}

				@Override
				public @Nullable Object describe() {
					return null;
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DuplicateContributorConfiguration {

		@Bean
		CacheContributor otherCacheContributor() {
			return new CacheContributor();
		}

	}

}
