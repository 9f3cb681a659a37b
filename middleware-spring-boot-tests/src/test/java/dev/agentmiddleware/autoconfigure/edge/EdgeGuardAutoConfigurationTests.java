package dev.agentmiddleware.autoconfigure.edge;

import java.util.List;

import ch.qos.logback.classic.Level;
import dev.agentmiddleware.testsupport.CapturedLog;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The edge guard without the MCP starter (no MCP SDK, no Spring Security on the class
 * path): the approval API, the actuator endpoint and added paths refuse a foreign
 * {@code Host} (and a foreign {@code Origin}) with 403, from one configuration under
 * {@code agent.middleware.edge}; a request the guard lets through reaches the rest of the
 * chain.
 */
class EdgeGuardAutoConfigurationTests {

	@RegisterExtension
	final CapturedLog log = CapturedLog.of(EdgeGuardAutoConfiguration.class, Level.WARN);

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EdgeGuardAutoConfiguration.class))
		.withClassLoader(new FilteredClassLoader("io.modelcontextprotocol", "org.springframework.security"));

	@Test
	void theApprovalApiConsoleAndActuatorEndpointRefuseAForeignHost() {
		this.contextRunner.run((context) -> {
			for (String path : List.of("/agent/approvals", "/agent/approvals/console", "/agent/approvals/audit",
					"/actuator/agentmiddleware", "/actuator/agentmiddleware/delete_file")) {
				MockHttpServletResponse response = send(context, "GET", path, "evil.example", null);
				assertThat(response.getStatus()).as(path).isEqualTo(HttpServletResponse.SC_FORBIDDEN);
				assertThat(response.getContentAsString())
					.isEqualTo("{\"error\":\"Forbidden: this host name is not allowed\"}");
				assertThat(send(context, "GET", path, "localhost:8080", null).getStatus()).as(path).isEqualTo(200);
			}
		});
	}

	@Test
	void aDecisionWithAForeignOriginIsRefusedAndOneWithoutOriginPasses() {
		this.contextRunner.run((context) -> {
			MockHttpServletResponse foreign = send(context, "POST", "/agent/approvals/abc/approve", "localhost:8080",
					"https://evil.example");
			assertThat(foreign.getStatus()).isEqualTo(HttpServletResponse.SC_FORBIDDEN);
			assertThat(foreign.getContentAsString()).contains("this origin is not allowed");
			assertThat(send(context, "POST", "/agent/approvals/abc/approve", "localhost:8080", null).getStatus())
				.isEqualTo(200);
			assertThat(send(context, "POST", "/agent/approvals/abc/approve", "localhost:8080", "http://localhost:8080")
				.getStatus()).isEqualTo(200);
		});
	}

	@Test
	void otherPathsOfTheApplicationAreLeftAloneUnlessAdded() {
		this.contextRunner.run((context) -> assertThat(send(context, "GET", "/chat", "evil.example", null).getStatus())
			.isEqualTo(200));
		this.contextRunner.withPropertyValues("agent.middleware.edge.paths=/chat").run((context) -> {
			assertThat(send(context, "POST", "/chat", "evil.example", null).getStatus()).isEqualTo(403);
			assertThat(send(context, "POST", "/chat/stream", "evil.example", null).getStatus()).isEqualTo(403);
			assertThat(send(context, "POST", "/chatter", "evil.example", null).getStatus()).isEqualTo(200);
		});
	}

	@Test
	void movedPathsAreGuardedWhereTheyAre() {
		this.contextRunner
			.withPropertyValues("agent.middleware.approval.web.path=/ops/approvals",
					"management.endpoints.web.base-path=/manage")
			.run((context) -> {
				assertThat(send(context, "GET", "/ops/approvals", "evil.example", null).getStatus()).isEqualTo(403);
				assertThat(send(context, "GET", "/manage/agentmiddleware", "evil.example", null).getStatus())
					.isEqualTo(403);
			});
		this.contextRunner
			.withPropertyValues("management.endpoints.web.base-path=/",
					"management.endpoints.web.path-mapping.agentmiddleware=agent")
			.run((context) -> assertThat(send(context, "GET", "/agent", "evil.example", null).getStatus())
				.isEqualTo(403));
	}

	@Test
	void configuredHostsAndOriginsReplaceTheLocalDefaults() {
		this.contextRunner
			.withPropertyValues("agent.middleware.edge.allowed-hosts=agent.example.com",
					"agent.middleware.edge.allowed-origins=https://console.example.com")
			.run((context) -> {
				assertThat(send(context, "GET", "/agent/approvals", "agent.example.com", "https://console.example.com")
					.getStatus()).isEqualTo(200);
				assertThat(send(context, "GET", "/agent/approvals", "localhost:8080", null).getStatus()).isEqualTo(403);
			});
	}

	@Test
	void theFormerMcpPropertiesStillConfigureTheSameGuardWithAWarning() {
		this.contextRunner.withPropertyValues("agent.middleware.mcp.transport.allowed-hosts=mcp.example.com")
			.run((context) -> {
				assertThat(context.getBean(HostOriginGuard.class).allowedHosts()).containsExactly("mcp.example.com");
				assertThat(send(context, "GET", "/agent/approvals", "mcp.example.com", null).getStatus())
					.isEqualTo(200);
				assertThat(this.log.events()).singleElement()
					.extracting((event) -> event.getFormattedMessage())
					.asString()
					.contains("agent.middleware.mcp.transport.allowed-hosts is deprecated",
							"agent.middleware.edge.allowed-hosts");
			});
	}

	@Test
	void differentListsUnderBothKeysFailStartup() {
		this.contextRunner
			.withPropertyValues("agent.middleware.mcp.transport.allowed-hosts=mcp.example.com",
					"agent.middleware.edge.allowed-hosts=agent.example.com")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("differ: set only agent.middleware.edge.allowed-hosts"));
	}

	@Test
	void noFilterOutsideAServletApplication() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(EdgeGuardAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(HostOriginGuard.class)
				.doesNotHaveBean("agentMiddlewareEdgeGuardFilter"));
	}

	private static MockHttpServletResponse send(AssertableWebApplicationContext context, String method, String path,
			String host, String origin) throws Exception {
		@SuppressWarnings("unchecked")
		FilterRegistrationBean<EdgeGuardFilter> registration = context.getBean("agentMiddlewareEdgeGuardFilter",
				FilterRegistrationBean.class);
		MockHttpServletRequest request = new MockHttpServletRequest(method, path);
		request.addHeader("Host", host);
		if (origin != null) {
			request.addHeader("Origin", origin);
		}
		MockHttpServletResponse response = new MockHttpServletResponse();
		registration.getFilter().doFilter(request, response, new MockFilterChain());
		return response;
	}

}
