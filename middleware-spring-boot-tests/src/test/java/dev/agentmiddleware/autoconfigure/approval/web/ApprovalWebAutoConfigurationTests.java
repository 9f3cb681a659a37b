package dev.agentmiddleware.autoconfigure.approval.web;

import dev.agentmiddleware.autoconfigure.mcp.McpApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfigurationTests;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalQueueProvider;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.web.OAuth2ResourceServerWebSecurityAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class ApprovalWebAutoConfigurationTests {

	private static final String NOBODY = "nobody can log in as an approver to the approval console and REST API";

	// Not fetched at startup: Spring Security reads a JWK set when the first token
	// arrives
	private static final String JWK_SET_URI = "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:9/jwks";

	private static final AutoConfigurations OAUTH = AutoConfigurations.of(UserDetailsServiceAutoConfiguration.class,
			OAuth2ResourceServerAutoConfiguration.class, OAuth2ResourceServerWebSecurityAutoConfiguration.class);

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ApprovalAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				ApprovalWebAutoConfiguration.class, McpApprovalAutoConfiguration.class, SecurityAutoConfiguration.class,
				ServletWebSecurityAutoConfiguration.class))
		.withUserConfiguration(ApprovalAutoConfigurationTests.FileToolsConfiguration.class);

	@Test
	void servesTheQueueAndProtectsItsPathsWhileBootsDefaultChainStillProtectsTheRest() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ApprovalController.class).hasSingleBean(ApprovalQueueProvider.class);
			assertThat(context.getBeansOfType(SecurityFilterChain.class)).containsKeys("approvalSecurityFilterChain",
					"defaultSecurityFilterChain");
		});
	}

	@Test
	void theConsoleOffersItsAuditTabOnlyToUsersWithTheAuditRole() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(AuditAutoConfiguration.class, AuditWebAutoConfiguration.class))
			.withPropertyValues("agent.middleware.audit.web.path=/compliance/calls",
					"agent.middleware.audit.web.role=COMPLIANCE")
			.run((context) -> {
				assertThat(context).hasSingleBean(AuditTab.class);
				ApprovalController controller = context.getBean(ApprovalController.class);
				assertThat(consoleAs(controller, "ROLE_COMPLIANCE"))
					.contains("const auditPath = \"/compliance/calls\";")
					.contains("const auditOutcomes = [\"succeeded\",");
				assertThat(consoleAs(controller, "ROLE_APPROVER")).contains("const auditPath = null;");
				// The page of one request (the approval link's) has no tab
				assertThat(controller.consoleOfRequest("req-1").getBody()).contains("const auditPath = null;");
			});
	}

	@Test
	void withoutTheAuditTrailTheConsoleHasNoAuditTab() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(AuditTab.class);
			assertThat(consoleAs(context.getBean(ApprovalController.class), "ROLE_auditor"))
				.contains("const auditPath = null;");
		});
	}

	private static String consoleAs(ApprovalController controller, String authority) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/agent/approvals/console");
		request.addUserRole(authority);
		RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
		try {
			return controller.console();
		}
		finally {
			RequestContextHolder.resetRequestAttributes();
		}
	}

	@Test
	void withoutSpringSecurityTheQueueIsServedUnprotected() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> assertThat(context).hasSingleBean(ApprovalController.class)
				.doesNotHaveBean("approvalSecurityFilterChain"));
	}

	@Test
	void besideAResourceServerWithNobodyToLogInStartupWarnsOnceNamingTheWaysToLetApproversIn(CapturedOutput output) {
		this.contextRunner.withConfiguration(OAUTH).withPropertyValues(JWK_SET_URI).run((context) -> {
			assertThat(context).hasNotFailed().hasBean("approvalSecurityFilterChain");
			assertThat(output.getOut().lines().filter((line) -> line.contains(NOBODY))).singleElement()
				.asString()
				.contains(" WARN ")
				.contains("Calls of delete_file wait for a person's approval (provider link, queue)")
				.contains("at /agent/approvals: the application has no users")
				.contains("declare a UserDetailsService bean")
				.contains("spring.security.user.name, spring.security.user.password and "
						+ "spring.security.user.roles=APPROVER")
				.contains("agent.middleware.approval.web.token-authority");
		});
	}

	@Test
	void springSecurityUserWithTheApproverRoleIsEnoughBesideAResourceServer(CapturedOutput output) {
		this.contextRunner.withConfiguration(OAUTH)
			.withPropertyValues(JWK_SET_URI, "spring.security.user.name=root", "spring.security.user.password=secret",
					"spring.security.user.roles=APPROVER")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain(NOBODY);
			});
	}

	@Test
	void springSecurityUserWithoutTheApproverRoleIsNamedInTheWarning(CapturedOutput output) {
		this.contextRunner.withConfiguration(OAUTH)
			.withPropertyValues(JWK_SET_URI, "spring.security.user.password=secret")
			.run((context) -> assertThat(output).contains(NOBODY)
				.contains("spring.security.user.roles does not include APPROVER"));
	}

	@Test
	void aTokenAuthorityIsEnoughBesideAResourceServer(CapturedOutput output) {
		this.contextRunner.withConfiguration(OAUTH)
			.withPropertyValues(JWK_SET_URI, "agent.middleware.approval.web.token-authority=SCOPE_approvals")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(ApprovalBearerTokens.class);
				assertThat(output).doesNotContain(NOBODY);
			});
	}

	@Test
	void theApplicationsOwnUsersAreEnoughBesideAResourceServer(CapturedOutput output) {
		this.contextRunner.withConfiguration(OAUTH)
			.withPropertyValues(JWK_SET_URI)
			.withUserConfiguration(ApproverUsersConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain(NOBODY);
			});
	}

	@Test
	void withoutOAuthOnTheClassPathSpringBootDefinesItsUserAndNothingIsSaid(CapturedOutput output) {
		this.contextRunner.withConfiguration(AutoConfigurations.of(UserDetailsServiceAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springframework.security.oauth2",
					"org.springframework.boot.security.oauth2"))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasBean("inMemoryUserDetailsManager");
				assertThat(output).doesNotContain(NOBODY);
			});
	}

	@Test
	void theResourceServerOnTheClassPathAloneMakesSpringBootDefineNoUser(CapturedOutput output) {
		this.contextRunner.withConfiguration(OAUTH).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ApprovalBearerTokens.class);
			assertThat(output).contains(NOBODY);
		});
	}

	@Test
	void nothingIsSaidWhenNoToolNeedsApproval(CapturedOutput output) {
		this.contextRunner.withConfiguration(OAUTH)
			.withPropertyValues(JWK_SET_URI, "agent.middleware.approval.policy=none")
			.run((context) -> assertThat(output).doesNotContain(NOBODY));
	}

	@Test
	void webCanBeTurnedOff() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.web.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ApprovalController.class)
				.doesNotHaveBean(ApprovalQueueProvider.class)
				.doesNotHaveBean("approvalSecurityFilterChain"));
	}

	@Configuration(proxyBeanMethods = false)
	static class ApproverUsersConfiguration {

		@Bean
		InMemoryUserDetailsManager approvers() {
			return new InMemoryUserDetailsManager(
					User.withUsername("ann").password("{noop}secret").roles("APPROVER").build());
		}

	}

}
