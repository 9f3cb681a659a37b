package dev.agentmiddleware.autoconfigure.tool;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.ToolCallSessionResolver.ToolCallSession;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ToolCallScopeTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ToolCacheAutoConfiguration.class))
		.withUserConfiguration(StockToolsConfiguration.class);

	@AfterEach
	void clearThreadState() {
		SecurityContextHolder.clearContext();
		RequestContextHolder.resetRequestAttributes();
	}

	@Test
	void javaCallsInsideASessionScopeHitTheSessionScopedCache() {
		this.contextRunner.run((context) -> {
			StockTools tools = context.getBean(StockTools.class);
			ToolCallScope.run("conversation-1", null, () -> {
				tools.stockLevel("SKU-1");
				tools.stockLevel("SKU-1");
			});
			assertThat(tools.runs()).isEqualTo(1);
			try (ToolCallScope scope = ToolCallScope.open("conversation-1", null)) {
				tools.stockLevel("SKU-1");
			}
			assertThat(tools.runs()).as("same session, later scope").isEqualTo(1);
			ToolCallScope.run("conversation-2", null, () -> tools.stockLevel("SKU-1"));
			assertThat(tools.runs()).as("another session never shares results").isEqualTo(2);
		});
	}

	@Test
	void javaCallsWithoutASessionBypassTheSessionScopedCache() {
		this.contextRunner.run((context) -> {
			StockTools tools = context.getBean(StockTools.class);
			tools.stockLevel("SKU-1");
			tools.stockLevel("SKU-1");
			assertThat(tools.runs()).isEqualTo(2);
		});
	}

	@Test
	void nestedScopesRestoreTheOuterSessionWhenClosed() {
		ToolPrincipal alice = ToolPrincipal.of("alice");
		try (ToolCallScope outer = ToolCallScope.open("outer", alice)) {
			try (ToolCallScope inner = ToolCallScope.open("inner", null)) {
				assertThat(ToolCallScope.currentSession()).isEqualTo(new ToolCallSession("inner", null));
				assertThatIllegalStateException().isThrownBy(outer::close).withMessageContaining("out of order");
			}
			assertThat(ToolCallScope.currentSession()).isEqualTo(new ToolCallSession("outer", alice));
		}
		assertThat(ToolCallScope.currentSession()).isNull();
	}

	@Test
	void theStandardResolverTakesTheHttpSessionAndTheSpringSecurityPrincipalWithItsAuthorities() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("alice", "n/a",
					AuthorityUtils.createAuthorityList("SCOPE_stock.read", "ROLE_CLERK")));
		ToolPrincipal alice = ToolPrincipal.of("alice", Set.of("SCOPE_stock.read", "ROLE_CLERK"));
		assertThat(ToolCallSessionResolver.standard().resolve()).as("a session is never created")
			.isEqualTo(new ToolCallSession(null, alice));
		String sessionId = request.getSession(true).getId();
		assertThat(ToolCallSessionResolver.standard().resolve()).isEqualTo(new ToolCallSession(sessionId, alice));
		try (ToolCallScope scope = ToolCallScope.open("conversation-9", null)) {
			assertThat(ToolCallSessionResolver.standard().resolve())
				.isEqualTo(new ToolCallSession("conversation-9", alice));
		}
	}

	@Test
	void anAnonymousOrUnauthenticatedSecurityContextGivesNoPrincipal() {
		SecurityContextHolder.getContext()
			.setAuthentication(new AnonymousAuthenticationToken("key", "anonymousUser",
					AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS")));
		assertThat(ToolCallSessionResolver.standard().resolve()).isEqualTo(ToolCallSession.NONE);
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.unauthenticated("mallory", "guess"));
		assertThat(ToolCallSessionResolver.standard().resolve()).isEqualTo(ToolCallSession.NONE);
	}

	@Test
	void javaCallsInAnHttpSessionHitTheSessionScopedCache() {
		this.contextRunner.run((context) -> {
			StockTools tools = context.getBean(StockTools.class);
			MockHttpServletRequest request = new MockHttpServletRequest();
			request.getSession(true);
			RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
			tools.stockLevel("SKU-1");
			tools.stockLevel("SKU-1");
			assertThat(tools.runs()).isEqualTo(1);
		});
	}

	@Test
	void aResolverBeanReplacesTheStandardOne() {
		this.contextRunner.withBean(ToolCallSessionResolver.class, () -> () -> new ToolCallSession("fixed", null))
			.run((context) -> {
				StockTools tools = context.getBean(StockTools.class);
				tools.stockLevel("SKU-1");
				tools.stockLevel("SKU-1");
				assertThat(tools.runs()).isEqualTo(1);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class StockToolsConfiguration {

		@Bean
		StockTools stockTools() {
			return new StockTools();
		}

	}

	public static class StockTools {

		private final AtomicInteger runs = new AtomicInteger();

		// Read through a method: the bean is a class-based proxy, whose own fields are
		// never set.
		public int runs() {
			return this.runs.get();
		}

		@AgentTool(readOnly = true)
		public int stockLevel(String sku) {
			this.runs.incrementAndGet();
			return 7;
		}

	}

}
