package dev.agentmiddleware.autoconfigure.approval;

import dev.agentmiddleware.autoconfigure.mcp.McpApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcApprovalStore;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.agentmiddleware.approval.ApprovalProvider.ApprovalCallback;
import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalDeniedException;
import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalPolicy;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;
import dev.agentmiddleware.approval.InMemoryApprovalStore;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@ExtendWith(OutputCaptureExtension.class)
public class ApprovalAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ApprovalAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				ApprovalWebAutoConfiguration.class, McpApprovalAutoConfiguration.class))
		.withUserConfiguration(FileToolsConfiguration.class);

	@Test
	void gatesDangerousToolsByDefaultAndLeavesTheOthersAlone() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ApprovalMiddleware.class).hasSingleBean(InMemoryApprovalStore.class);
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("delete_file").pipeline().layers()).containsExactly("approval", "delete_file");
			assertThat(registry.get("write_file").pipeline().layers()).containsExactly("write_file");
			assertThat(registry.get("read_file").pipeline().layers()).containsExactly("read_file");
		});
	}

	@Test
	void stoppingTheApplicationDeniesTheCallsStillWaitingInsteadOfHoldingTheShutdownUp() throws Exception {
		this.contextRunner.withUserConfiguration(SilentApproverConfiguration.class).run((context) -> {
			FileTools tools = context.getBean(FileTools.class);
			ExecutorService caller = Executors.newSingleThreadExecutor();
			try {
				Future<String> waiting = caller.submit(() -> tools.deleteFile("a.txt"));
				assertThat(context.getBean(SilentApprover.class).asked.await(5, TimeUnit.SECONDS)).isTrue();
				context.close();
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
					.havingCause()
					.isInstanceOf(ApprovalDeniedException.class)
					.withMessageContaining("still waiting for approval when the application shut down")
					.satisfies((ex) -> assertThat(((ApprovalDeniedException) ex).approvalOutcome())
						.isEqualTo(ApprovalOutcome.ABANDONED));
				assertThat(tools.deletes()).isZero();
			}
			finally {
				caller.shutdownNow();
			}
		});
	}

	@Test
	void withNoApproverConfiguredGatedCallsAreDenied() {
		this.contextRunner.run((context) -> {
			FileTools tools = context.getBean(FileTools.class);
			assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> tools.deleteFile("a.txt"))
				.withMessageContaining("no approver is configured");
			assertThat(tools.deletes()).isZero();
			assertThat(tools.readFile("a.txt")).isEqualTo("content of a.txt");
		});
	}

	@Test
	void sensitiveAndExemptToolsAreMatchedInAnySpelling() {
		this.contextRunner
			.withPropertyValues("agent.middleware.approval.sensitive-tools=WRITE-FILE",
					"agent.middleware.approval.exempt-tools=delete_file")
			.run((context) -> {
				AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
				assertThat(registry.get("write_file").pipeline().layers()).contains("approval");
				assertThat(registry.get("delete_file").pipeline().layers()).doesNotContain("approval");
			});
	}

	@Test
	void aToolListedUnderToolsNeedsApprovalUnlessItsEntrySaysEnabledFalse() {
		this.contextRunner
			.withPropertyValues("agent.middleware.approval.tools.Write-File.enabled=true",
					"agent.middleware.approval.tools.delete-file.enabled=false")
			.run((context) -> {
				AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
				assertThat(registry.get("write_file").pipeline().layers()).contains("approval");
				assertThat(registry.get("delete_file").pipeline().layers()).doesNotContain("approval");
				assertThat(registry.get("read_file").pipeline().layers()).doesNotContain("approval");
			});
	}

	@Test
	void theMiddlewareIsBuiltWithThePolicyFunctionOfThePropertiesAndReportsWhatItGated() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.tools.write-file.enabled=true")
			.run((context) -> {
				AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
				registry.tools().forEach((tool) -> tool.pipeline());
				assertThat(context.getBean(ApprovalMiddleware.class).policies()).containsExactly(
						Map.entry("delete_file", ApprovalPolicy.REQUIRED),
						Map.entry("write_file", ApprovalPolicy.REQUIRED));
			});
	}

	@Test
	void thePropertiesAreMappedByOneConfigurerThatEveryApprovalBeanShares() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.tools.write-file.enabled=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(ApprovalConfigurer.class);
				AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
				assertThat(registry.get("write_file").pipeline().layers()).contains("approval");
				assertThat(context.getBean(ApprovalMiddleware.class).timeout())
					.isEqualTo(context.getBean(ApprovalProperties.class).getTimeout());
			});
	}

	@Test
	void anUnknownToolUnderToolsFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.tools.wipe.enabled=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContaining("agent.middleware.approval.tools.wipe"));
	}

	@Test
	void theDeprecatedListsStillCountAndWarnWithTheNewSpelling(CapturedOutput output) {
		this.contextRunner.withPropertyValues("agent.middleware.approval.exempt-tools=delete_file").run((context) -> {
			assertThat(context.getBean(AgentToolRegistry.class).get("delete_file").pipeline().layers())
				.doesNotContain("approval");
			assertThat(output).contains("agent.middleware.approval.exempt-tools is deprecated")
				.contains("agent.middleware.approval.tools.<tool-name> with enabled: false");
		});
	}

	@Test
	void policyAllGatesEveryTool() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.policy=all").run((context) -> {
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("read_file").pipeline().layers()).containsExactly("approval", "read_file");
		});
	}

	@Test
	void unknownPolicyFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.policy=sometimes")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'agent.middleware.approval.policy'")
				.hasStackTraceContaining("sometimes"));
	}

	@Test
	void unknownExemptOrSensitiveToolFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.exempt-tools=delete_fil")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContaining("agent.middleware.approval.exempt-tools[0]"));
		this.contextRunner.withPropertyValues("agent.middleware.approval.sensitive-tools=wipe")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContaining("agent.middleware.approval.sensitive-tools[0]"));
	}

	@Test
	void unknownProviderFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.providers=queue,slack")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("agent.middleware.approval.providers[1]")
				.hasMessageContaining("slack"));
	}

	@Test
	void logsOneLineListingTheToolsThatNeedApproval(CapturedOutput output) {
		this.contextRunner.withPropertyValues("agent.middleware.approval.sensitive-tools=write_file")
			.run((context) -> assertThat(output).contains(
					"Tools that need a human's approval (policy dangerous, timeout 2m): delete_file, write_file"));
	}

	@Test
	void callbackBeanDecidesAndOutcomesAreCountedAndAudited() {
		this.contextRunner.withUserConfiguration(CallbackConfiguration.class, MetricsConfiguration.class)
			.run((context) -> {
				FileTools tools = context.getBean(FileTools.class);
				assertThat(tools.deleteFile("tmp/a")).isEqualTo("deleted tmp/a");
				assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> tools.deleteFile("etc/x"))
					.withMessageContaining("policy denied it: only tmp/");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("agent.tool.approvals").tag("outcome", "approved").counter().count())
					.isEqualTo(1.0);
				assertThat(registry.get("agent.tool.approvals").tag("outcome", "denied").counter().count())
					.isEqualTo(1.0);
				assertThat(context.getBean(ApprovalStore.class).auditTrail(10)).extracting((record) -> record.outcome())
					.containsExactly(ApprovalOutcome.DENIED, ApprovalOutcome.APPROVED);
				AgentMiddlewareEndpointContributor endpoint = context.getBean("approvalEndpointContributor",
						AgentMiddlewareEndpointContributor.class);
				assertThat(endpoint.describe()).asString().contains("outcome=denied").contains("policy=dangerous");
			});
	}

	@Test
	void eachOutcomeIsCountedOnceUnderOneMeterName() {
		this.contextRunner.withUserConfiguration(CallbackConfiguration.class, MetricsConfiguration.class)
			.run((context) -> {
				FileTools tools = context.getBean(FileTools.class);
				tools.deleteFile("tmp/a");
				assertThatExceptionOfType(ApprovalDeniedException.class).isThrownBy(() -> tools.deleteFile("etc/x"));
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find("agent.tool.approvals").counters())
					.extracting((counter) -> counter.getId().getTag("outcome") + "=" + counter.count())
					.containsExactlyInAnyOrder("approved=1.0", "denied=1.0");
				assertThat(registry.getMeters()).extracting((meter) -> meter.getId().getName())
					.filteredOn((name) -> name.startsWith("agent.tool.approvals."))
					.allMatch("agent.tool.approvals.requested"::equals);
			});
	}

	@Test
	void callingMcpClientDoesNotDecideByDefault(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(CallbackConfiguration.class).run((context) -> {
			List<String> names = ((CompositeApprovalProvider) providerOf(context.getBean(ApprovalMiddleware.class)))
				.providers()
				.stream()
				.map((provider) -> provider.name())
				.toList();
			assertThat(names).containsExactly("callback");
		});
		assertThat(output).doesNotContain("calling MCP client's user decides");
	}

	@Test
	void listingElicitationWarnsOnceThatTheCallingClientDecides(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(CallbackConfiguration.class)
			.withPropertyValues("agent.middleware.approval.providers=mcp-elicitation,callback")
			.run((context) -> assertThat(
					((CompositeApprovalProvider) providerOf(context.getBean(ApprovalMiddleware.class))).providers())
				.extracting((provider) -> provider.name())
				.containsExactly("mcp-elicitation", "callback"));
		assertThat(output.getOut().lines().filter((line) -> line.contains(" WARN ")))
			.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
			.contains("'mcp-elicitation'", "calling MCP client's user decides whether these tools run: delete_file.",
					"Remove it from the list");
	}

	@Test
	void providersFollowTheConfiguredOrder() {
		this.contextRunner.withUserConfiguration(CallbackConfiguration.class)
			.withPropertyValues("agent.middleware.approval.providers=callback")
			.run((context) -> assertThat(
					((CompositeApprovalProvider) providerOf(context.getBean(ApprovalMiddleware.class))).providers())
				.extracting((provider) -> provider.name())
				.containsExactly("callback"));
	}

	@Test
	void usesTheJdbcStoreWhenADataSourceExists() {
		this.contextRunner.withUserConfiguration(DataSourceConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(JdbcApprovalStore.class)
				.doesNotHaveBean(InMemoryApprovalStore.class));
		this.contextRunner.withUserConfiguration(DataSourceConfiguration.class)
			.withPropertyValues("agent.middleware.approval.store.type=memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryApprovalStore.class)
				.doesNotHaveBean(JdbcApprovalStore.class));
	}

	@Test
	void jdbcStoreWithoutADataSourceFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.store.type=jdbc")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining(
						"Invalid configuration property 'agent.middleware.approval.store.type': the JDBC "
								+ "approval store needs a DataSource"));
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ApprovalMiddleware.class));
	}

	private static Object providerOf(ApprovalMiddleware middleware) throws Exception {
		// The provider is asked by the middleware's wait (ApprovalWait), a
		// package-private part of it
		java.lang.reflect.Field waitField = ApprovalMiddleware.class.getDeclaredField("wait");
		waitField.setAccessible(true);
		Object wait = waitField.get(middleware);
		java.lang.reflect.Field field = wait.getClass().getDeclaredField("provider");
		field.setAccessible(true);
		return field.get(wait);
	}

	public static class FileTools {

		private final AtomicInteger deletes = new AtomicInteger();

		public int deletes() {
			return this.deletes.get();
		}

		@AgentTool(description = "Reads a file", safety = SafetyLevel.SAFE, readOnly = true)
		public String readFile(String path) {
			return "content of " + path;
		}

		@AgentTool(description = "Writes a file", safety = SafetyLevel.MODERATE)
		public String writeFile(String path, String content) {
			return "written";
		}

		@AgentTool(description = "Deletes a file", safety = SafetyLevel.DANGEROUS)
		public String deleteFile(String path) {
			this.deletes.incrementAndGet();
			return "deleted " + path;
		}

	}

	@Configuration(proxyBeanMethods = false)
	public static class FileToolsConfiguration {

		@Bean
		FileTools fileTools() {
			return new FileTools();
		}

	}

	/**
	 * An approver that is asked but never answers, like a person who is away.
	 */
	static final class SilentApprover implements ApprovalProvider {

		final CountDownLatch asked = new CountDownLatch(1);

		@Override
		public String name() {
			return "silent";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			this.asked.countDown();
			return new CompletableFuture<>();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SilentApproverConfiguration {

		@Bean
		SilentApprover silentApprover() {
			return new SilentApprover();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CallbackConfiguration {

		@Bean
		ApprovalCallback onlyTemporaryFiles() {
			return (request) -> request.arguments().contains("tmp/") ? ApprovalDecision.approve("policy")
					: ApprovalDecision.deny("policy", "only tmp/");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MetricsConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DataSourceConfiguration {

		@Bean
		DataSource dataSource() {
			return new SimpleDriverDataSource(new org.h2.Driver(),
					"jdbc:h2:mem:approval-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		}

	}

}
