package dev.agentmiddleware.autoconfigure.mcp;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class McpTransportAutoConfigurationFilterTests {

	private static final String[] CANDIDATES = { "com.example.OtherAutoConfiguration",
			McpTransportAutoConfigurationFilter.SPRING_AI_TRANSPORT };

	@Test
	void leavesOutSpringAisStreamableTransportByDefault() {
		McpTransportAutoConfigurationFilter filter = new McpTransportAutoConfigurationFilter();
		filter.setEnvironment(new MockEnvironment());
		assertThat(filter.match(CANDIDATES, null)).containsExactly(true, false);
	}

	@Test
	void keepsItWhenOurTransportIsDisabled() {
		McpTransportAutoConfigurationFilter filter = new McpTransportAutoConfigurationFilter();
		filter.setEnvironment(new MockEnvironment().withProperty("agent.middleware.mcp.transport.enabled", "false"));
		assertThat(filter.match(CANDIDATES, null)).containsExactly(true, true);
	}

}
