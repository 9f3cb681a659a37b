package dev.agentmiddleware.autoconfigure.edge;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostOriginGuardTests {

	private final HostOriginGuard guard = HostOriginGuard.local();

	@Test
	void localRequestsWithOrWithoutALocalOriginAreServed() {
		assertThat(this.guard.refusal("localhost:8080", null)).isNull();
		assertThat(this.guard.refusal("127.0.0.1:8080", "http://localhost:6274")).isNull();
		assertThat(this.guard.refusal("[::1]:8080", "http://[::1]:3000")).isNull();
	}

	@Test
	void aForeignHostIsRefusedWhateverTheOrigin() {
		assertThat(this.guard.refusal("evil.example", null)).isEqualTo(HostOriginGuard.FOREIGN_HOST);
		assertThat(this.guard.refusal("evil.example:8080", "http://evil.example:8080"))
			.isEqualTo("Forbidden: this host name is not allowed");
		assertThat(this.guard.refusal(null, null)).isEqualTo(HostOriginGuard.FOREIGN_HOST);
	}

	@Test
	void aForeignOriginIsRefused() {
		assertThat(this.guard.refusal("localhost:8080", "https://evil.example"))
			.isEqualTo("Forbidden: this origin is not allowed");
		assertThat(this.guard.refusal("localhost:8080", "http://localhost.evil.example")).isNotNull();
		assertThat(this.guard.refusal("localhost:8080", "null")).isNotNull();
	}

	@Test
	void theServersOwnPageIsServedOnAHostListedByName() {
		HostOriginGuard deployed = new HostOriginGuard(List.of(), List.of("agent.example.com"));
		assertThat(deployed.refusal("agent.example.com", "https://agent.example.com")).isNull();
		assertThat(deployed.refusal("agent.example.com:8443", "https://agent.example.com:8443")).isNull();
		assertThat(deployed.refusal("agent.example.com", "https://other.example.com"))
			.isEqualTo(HostOriginGuard.FOREIGN_ORIGIN);
	}

	@Test
	void anyHostDoesNotMakeEveryOriginTheServersOwn() {
		HostOriginGuard anyHost = new HostOriginGuard(HostOriginGuard.LOCAL_ORIGINS, List.of("*"));
		assertThat(anyHost.refusal("rebound.evil.example", null)).isNull();
		assertThat(anyHost.refusal("rebound.evil.example", "http://rebound.evil.example"))
			.isEqualTo(HostOriginGuard.FOREIGN_ORIGIN);
	}

	@Test
	void patternsAndHostsIgnoreCase() {
		HostOriginGuard guard = new HostOriginGuard(List.of("https://Console.Example.com"), List.of("MCP.example.com"));
		assertThat(guard.refusal("mcp.EXAMPLE.com", "https://console.example.COM")).isNull();
	}

	@Test
	void theHostNameIsTheHeaderWithoutItsPort() {
		for (String host : List.of("localhost", "localhost:8080", " LOCALHOST:8080 ", "localhost:", "127.0.0.1:1",
				"[::1]", "[::1]:8080", "[::1]8080")) {
			assertThat(this.guard.allowsHost(host)).as(host).isTrue();
		}
		for (String host : List.of("", ":8080", "localhost:8080:1", "::1", "[::1", "[", "localhost.evil.example:80",
				"127.0.0.1.evil.example", "evil.localhost", "localhos", "localhostx:8080")) {
			assertThat(this.guard.allowsHost(host)).as(host).isFalse();
		}
		assertThat(this.guard.allowsHost(null)).isFalse();
	}

	@Test
	void theServersOwnPageIsJudgedByTheHostNameOfItsHostHeader() {
		HostOriginGuard deployed = new HostOriginGuard(List.of(), List.of("agent.example.com", "[2001:db8::1]"));
		assertThat(deployed.refusal("[2001:db8::1]:8443", "https://[2001:db8::1]:8443")).isNull();
		assertThat(deployed.refusal("Agent.Example.com:8443", "https://agent.example.COM:8443")).isNull();
		assertThat(deployed.refusal("agent.example.com:8443", "https://agent.example.com")).isNotNull();
		assertThat(deployed.refusal("agent.example.com.evil:8443", "https://agent.example.com.evil:8443"))
			.isEqualTo(HostOriginGuard.FOREIGN_HOST);
	}

}
