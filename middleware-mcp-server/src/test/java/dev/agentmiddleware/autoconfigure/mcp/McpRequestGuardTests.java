package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class McpRequestGuardTests {

	private final McpRequestGuard guard = new McpRequestGuard(McpRequestGuard.LOCAL_ORIGINS,
			McpRequestGuard.LOCAL_HOSTS, List.of("2025-06-18"));

	@Test
	void requestWithoutOriginIsAllowed() {
		assertThat(this.guard.allowsOrigin(null)).isTrue();
	}

	@Test
	void localOriginsOnAnyPortAreAllowed() {
		assertThat(this.guard.allowsOrigin("http://localhost:6274")).isTrue();
		assertThat(this.guard.allowsOrigin("http://localhost")).isTrue();
		assertThat(this.guard.allowsOrigin("HTTP://127.0.0.1:8080")).isTrue();
		assertThat(this.guard.allowsOrigin("http://[::1]:3000")).isTrue();
	}

	@Test
	void otherOriginsAreRefused() {
		assertThat(this.guard.allowsOrigin("https://evil.example")).isFalse();
		assertThat(this.guard.allowsOrigin("http://localhost.evil.example")).isFalse();
		assertThat(this.guard.allowsOrigin("http://localhost:80.evil.example")).isFalse();
		assertThat(this.guard.allowsOrigin("null")).isFalse();
	}

	@Test
	void anyOriginWhenConfigured() {
		assertThat(new McpRequestGuard(List.of("*"), List.of("*"), List.of()).allowsOrigin("https://a.example"))
			.isTrue();
	}

	@Test
	void hostsAreComparedWithoutPort() {
		assertThat(this.guard.allowsHost("localhost:8080")).isTrue();
		assertThat(this.guard.allowsHost("127.0.0.1")).isTrue();
		assertThat(this.guard.allowsHost("[::1]:8080")).isTrue();
		assertThat(this.guard.allowsHost("rebound.evil.example:8080")).isFalse();
		assertThat(this.guard.allowsHost(null)).isFalse();
		assertThat(new McpRequestGuard(List.of(), List.of("mcp.example.com"), List.of()).allowsHost("MCP.example.com"))
			.isTrue();
	}

	@Test
	void protocolVersionMustBeSupportedWhenGiven() {
		assertThat(this.guard.allowsProtocolVersion(null)).isTrue();
		assertThat(this.guard.allowsProtocolVersion("2025-06-18")).isTrue();
		assertThat(this.guard.allowsProtocolVersion("1999-01-01")).isFalse();
	}

}
