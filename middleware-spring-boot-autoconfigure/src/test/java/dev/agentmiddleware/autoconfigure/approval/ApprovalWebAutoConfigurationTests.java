package dev.agentmiddleware.autoconfigure.approval;

import dev.agentmiddleware.approval.ApprovalProvider.ApprovalQueueProvider;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

class ApprovalWebAutoConfigurationTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ApprovalAutoConfiguration.class,
				SecurityAutoConfiguration.class, ServletWebSecurityAutoConfiguration.class))
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
	void withoutSpringSecurityTheQueueIsServedUnprotected() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> assertThat(context).hasSingleBean(ApprovalController.class)
				.doesNotHaveBean("approvalSecurityFilterChain"));
	}

	@Test
	void webCanBeTurnedOff() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.web.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ApprovalController.class)
				.doesNotHaveBean(ApprovalQueueProvider.class)
				.doesNotHaveBean("approvalSecurityFilterChain"));
	}

}
