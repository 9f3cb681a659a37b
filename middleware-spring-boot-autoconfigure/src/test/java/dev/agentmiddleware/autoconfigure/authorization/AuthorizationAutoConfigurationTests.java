package dev.agentmiddleware.autoconfigure.authorization;

import java.util.Set;

import dev.agentmiddleware.authorization.AuthorizationMiddleware;
import dev.agentmiddleware.authorization.AuthorizationMiddleware.ToolForbiddenException;
import dev.agentmiddleware.authorization.AuthorizationPolicy;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.ToolCallScope;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AuthorizationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AuthorizationAutoConfiguration.class))
		.withUserConfiguration(FileToolsConfiguration.class);

	@AfterEach
	void clearSecurityContext() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void aToolDeclaringAuthoritiesGetsTheAuthorizationLayerAndOthersKeepTheirChain() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(AuthorizationMiddleware.class);
			assertThat(layers(context, "delete_file")).containsExactly("authorization", "delete_file");
			assertThat(layers(context, "read_file")).containsExactly("read_file");
			assertThat(context.getBean(AuthorizationMiddleware.class).policies())
				.containsExactly(java.util.Map.entry("delete_file", AuthorizationPolicy.of("SCOPE_files.write")));
		});
	}

	@Test
	void aJavaCallerRunsTheToolWithTheAuthorityOfItsSecurityContext() {
		this.contextRunner.run((context) -> {
			FileTools tools = context.getBean(FileTools.class);
			SecurityContextHolder.getContext()
				.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("alice", "n/a",
						AuthorityUtils.createAuthorityList("SCOPE_files.write")));
			assertThat(tools.deleteFile("a.txt")).isEqualTo("deleted a.txt");
		});
	}

	@Test
	void aJavaCallerWithoutTheAuthorityIsForbiddenAndTheToolDoesNotRun() {
		this.contextRunner.run((context) -> {
			FileTools tools = context.getBean(FileTools.class);
			SecurityContextHolder.getContext()
				.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("bob", "n/a",
						AuthorityUtils.createAuthorityList("SCOPE_files.read")));
			assertThatExceptionOfType(ToolForbiddenException.class).isThrownBy(() -> tools.deleteFile("a.txt"))
				.withMessage("Tool 'delete_file' requires authority SCOPE_files.write, which the caller does not "
						+ "have.");
			SecurityContextHolder.clearContext();
			assertThatExceptionOfType(ToolForbiddenException.class).isThrownBy(() -> tools.deleteFile("a.txt"))
				.withMessage("Tool 'delete_file' requires authority SCOPE_files.write, and the caller is not "
						+ "authenticated.");
			assertThat(tools.deletions()).isZero();
		});
	}

	@Test
	void aToolCallScopeCarriesAPrincipalWithAuthorities() throws Exception {
		this.contextRunner.run((context) -> {
			FileTools tools = context.getBean(FileTools.class);
			ToolPrincipal writer = ToolPrincipal.of("batch-job", Set.of("SCOPE_files.write"));
			assertThat(ToolCallScope.call("job-1", writer, () -> tools.deleteFile("b.txt"))).isEqualTo("deleted b.txt");
			assertThatExceptionOfType(ToolForbiddenException.class).isThrownBy(
					() -> ToolCallScope.call("job-1", ToolPrincipal.of("batch-job"), () -> tools.deleteFile("c")));
		});
	}

	@Test
	void aConfiguredToolRequiresItsAuthoritiesOnTopOfTheDeclaredOnes() {
		this.contextRunner
			.withPropertyValues("agent.middleware.authorization.tools.read-file.authorities=SCOPE_files.read",
					"agent.middleware.authorization.tools.delete-file.authorities=ROLE_ADMIN")
			.run((context) -> {
				AuthorizationMiddleware authorization = context.getBean(AuthorizationMiddleware.class);
				assertThat(layers(context, "read_file")).containsExactly("authorization", "read_file");
				assertThat(layers(context, "delete_file")).containsExactly("authorization", "delete_file");
				assertThat(authorization.policies())
					.containsEntry("read_file", AuthorizationPolicy.of("SCOPE_files.read"))
					.containsEntry("delete_file", AuthorizationPolicy.of("SCOPE_files.write", "ROLE_ADMIN"));
			});
	}

	@Test
	void theDefaultsApplyToEveryToolAndAToolsEntryReplacesThemFieldByField() {
		this.contextRunner
			.withPropertyValues("agent.middleware.authorization.defaults.authorities=SCOPE_mcp",
					"agent.middleware.authorization.tools.list-files.authorities=SCOPE_files.read")
			.run((context) -> {
				AuthorizationMiddleware authorization = context.getBean(AuthorizationMiddleware.class);
				assertThat(layers(context, "read_file")).contains("authorization");
				assertThat(authorization.policies()).containsEntry("read_file", AuthorizationPolicy.of("SCOPE_mcp"))
					.containsEntry("delete_file", AuthorizationPolicy.of("SCOPE_mcp", "SCOPE_files.write"))
					.containsEntry("list_files", AuthorizationPolicy.of("SCOPE_files.read"));
			});
	}

	@Test
	void enabledFalseExemptsAToolFromTheConfiguredAuthoritiesButNeverFromTheDeclaredOnes() {
		this.contextRunner
			.withPropertyValues("agent.middleware.authorization.defaults.authorities=SCOPE_mcp",
					"agent.middleware.authorization.tools.read-file.enabled=false",
					"agent.middleware.authorization.tools.delete-file.enabled=false")
			.run((context) -> {
				assertThat(layers(context, "read_file")).containsExactly("read_file");
				assertThat(context.getBean(AuthorizationMiddleware.class).policies())
					.containsEntry("delete_file", AuthorizationPolicy.of("SCOPE_files.write"))
					.doesNotContainKey("read_file");
			});
	}

	@Test
	void anUnknownToolKeyFailsStartupNamingItWithASuggestion() {
		this.contextRunner.withPropertyValues("agent.middleware.authorization.tools.delete-fiel.authorities=ROLE_X")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
				assertThat(cause).isInstanceOf(InvalidToolConfigurationException.class)
					.hasMessageContaining("agent.middleware.authorization.tools.delete-fiel");
				assertThat(((InvalidToolConfigurationException) cause).getAction())
					.startsWith("Did you mean 'delete_file'?");
			});
	}

	@Test
	void aBlankAuthorityFailsStartupNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("agent.middleware.authorization.tools.read-file.authorities[0]=ROLE_CLERK",
					"agent.middleware.authorization.tools.read-file.authorities[1]=")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
				assertThat(cause).isInstanceOf(InvalidToolConfigurationException.class);
				assertThat(((InvalidToolConfigurationException) cause).getProperty())
					.isEqualTo("agent.middleware.authorization.tools.read-file.authorities");
			});
	}

	@Test
	void runsOutsideApprovalAndTheCacheByDefaultAndTheOrderCanBeChanged() {
		ApplicationContextRunner withOthers = this.contextRunner
			.withConfiguration(AutoConfigurations.of(ApprovalAutoConfiguration.class, ToolCacheAutoConfiguration.class))
			.withPropertyValues("agent.middleware.approval.policy=all",
					"agent.middleware.cache.tools.delete-file.ttl=1m",
					"agent.middleware.cache.tools.delete-file.enabled=true");
		withOthers.run((context) -> assertThat(layers(context, "delete_file")).containsExactly("authorization",
				"approval", "cache", "delete_file"));
		withOthers.withPropertyValues("agent.middleware.authorization.order=450")
			.run((context) -> assertThat(layers(context, "delete_file")).containsExactly("approval", "authorization",
					"cache", "delete_file"));
	}

	@Test
	void backsOffWhenDisabledAndWhenTheUserDefinesTheMiddleware() {
		this.contextRunner.withPropertyValues("agent.middleware.authorization.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(AuthorizationMiddleware.class);
			assertThat(layers(context, "delete_file")).containsExactly("delete_file");
		});
		this.contextRunner
			.withBean(AuthorizationMiddleware.class,
					() -> AuthorizationMiddleware.builder().policies((tool) -> null).build())
			.run((context) -> {
				assertThat(context).hasSingleBean(AuthorizationMiddleware.class);
				assertThat(layers(context, "delete_file")).containsExactly("delete_file");
			});
	}

	private static java.util.List<String> layers(AssertableApplicationContext context, String tool) {
		assertThat(context).hasNotFailed();
		return context.getBean(AgentToolRegistry.class).get(tool).pipeline().layers();
	}

	@Configuration(proxyBeanMethods = false)
	static class FileToolsConfiguration {

		@Bean
		FileTools fileTools() {
			return new FileTools();
		}

	}

	public static class FileTools {

		private int deletions;

		@AgentTool(readOnly = true, safety = SafetyLevel.SAFE)
		public String readFile(String path) {
			return "contents of " + path;
		}

		@AgentTool(readOnly = true, safety = SafetyLevel.SAFE)
		public String listFiles(String directory) {
			return directory;
		}

		@AgentTool(authorities = "SCOPE_files.write", safety = SafetyLevel.MODERATE)
		public String deleteFile(String path) {
			this.deletions++;
			return "deleted " + path;
		}

		int deletions() {
			return this.deletions;
		}

	}

}
