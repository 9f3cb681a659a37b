package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.mcp.McpSessionIds.McpRequestBaseUrls;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.filter.ForwardedHeaderFilter;
import org.springframework.web.util.WebUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The base URL of an HTTP request that carried an MCP message, as Spring's
 * {@code ServletUriComponentsBuilder.fromServletMapping} gives it: the same for each
 * request however many requests came before it, under whatever host, context path,
 * servlet mapping and character encoding.
 */
class McpRequestBaseUrlsTests {

	@Test
	void aRequestToTheRootContextHasSchemeHostAndPort() {
		assertThat(McpRequestBaseUrls.of(request("http", "localhost", 8080, "", "/mcp", null, "/mcp")))
			.isEqualTo("http://localhost:8080");
		assertThat(McpRequestBaseUrls.of(request("http", "localhost", 80, "", "/mcp", null, "/mcp")))
			.isEqualTo("http://localhost");
		assertThat(McpRequestBaseUrls.of(request("https", "agent.example.com", 443, "", "/mcp", null, "/mcp")))
			.isEqualTo("https://agent.example.com");
		assertThat(McpRequestBaseUrls.of(request("https", "agent.example.com", 8443, "", "/mcp", null, "/mcp")))
			.isEqualTo("https://agent.example.com:8443");
	}

	@Test
	void aRequestFromTheSameSourceAsTheLastGetsTheBaseUrlBuiltForTheLast() {
		String first = McpRequestBaseUrls
			.of(request("http", "localhost", 8080, "/app", "/api", "/mcp", "/app/api/mcp"));
		String next = McpRequestBaseUrls.of(request("http", "localhost", 8080, "/app", "/api", "/mcp", "/app/api/mcp"));
		assertThat(next).isEqualTo("http://localhost:8080/app/api").isSameAs(first);
	}

	@Test
	void aContextPathAndAPrefixServletMappingArePartOfIt() {
		assertThat(McpRequestBaseUrls.of(request("http", "localhost", 8080, "/app", "/api", "/mcp", "/app/api/mcp")))
			.isEqualTo("http://localhost:8080/app/api");
		// The default servlet mapping ("/"): the servlet path is the whole path
		assertThat(McpRequestBaseUrls.of(request("http", "localhost", 8080, "/app", "/mcp", null, "/app/mcp")))
			.isEqualTo("http://localhost:8080/app");
	}

	@Test
	void requestsThatDifferOnlyInTheirPathWithinTheServletMappingEachGetTheirOwn() {
		HttpServletRequest underMapping = request("http", "localhost", 8080, "/app", "/api", "/mcp", "/app/api/mcp");
		// An exact mapping of "/api": nothing within the mapping, so it is not part of it
		HttpServletRequest exactMapping = request("http", "localhost", 8080, "/app", "/api", null, "/app/api");
		for (int i = 0; i < 2; i++) {
			assertThat(McpRequestBaseUrls.of(underMapping)).isEqualTo("http://localhost:8080/app/api");
			assertThat(McpRequestBaseUrls.of(exactMapping)).isEqualTo("http://localhost:8080/app");
		}
	}

	@Test
	void eachHostAndPortGetsItsOwn() {
		for (int i = 0; i < 2; i++) {
			assertThat(McpRequestBaseUrls.of(request("http", "localhost", 8080, "", "/mcp", null, "/mcp")))
				.isEqualTo("http://localhost:8080");
			assertThat(McpRequestBaseUrls.of(request("http", "127.0.0.1", 8080, "", "/mcp", null, "/mcp")))
				.isEqualTo("http://127.0.0.1:8080");
			assertThat(McpRequestBaseUrls.of(request("http", "127.0.0.1", 9090, "", "/mcp", null, "/mcp")))
				.isEqualTo("http://127.0.0.1:9090");
			assertThat(McpRequestBaseUrls.of(request("https", "127.0.0.1", 9090, "", "/mcp", null, "/mcp")))
				.isEqualTo("https://127.0.0.1:9090");
		}
	}

	@Test
	void encodedCharactersAndPathParametersInTheUriAreReadAsTheServletMappingReadsThem() {
		for (int i = 0; i < 2; i++) {
			assertThat(McpRequestBaseUrls
				.of(request("http", "localhost", 8080, "/app", "/api", "/mcp tools", "/app/api/mcp%20tools")))
				.isEqualTo("http://localhost:8080/app/api");
			assertThat(McpRequestBaseUrls
				.of(request("http", "localhost", 8080, "/app", "/api", "/mcp", "/app;jsessionid=1/api/mcp")))
				.isEqualTo("http://localhost:8080/app/api");
		}
	}

	@Test
	void theCharacterEncodingDecidesWhetherAnEncodedPathMatchesTheServletPath() {
		// A servlet mapped exactly at "/é", whose path the container decoded as UTF-8
		MockHttpServletRequest utf8 = request("http", "localhost", 8080, "", "/é", null, "/%C3%A9");
		utf8.setCharacterEncoding("UTF-8");
		MockHttpServletRequest latin1 = request("http", "localhost", 8080, "", "/é", null, "/%C3%A9");
		latin1.setCharacterEncoding("ISO-8859-1");
		for (int i = 0; i < 2; i++) {
			assertThat(McpRequestBaseUrls.of(utf8)).isEqualTo("http://localhost:8080");
			assertThat(McpRequestBaseUrls.of(latin1)).isEqualTo("http://localhost:8080/é");
		}
	}

	@Test
	void anIncludedRequestIsReadWithTheIncludedPaths() {
		MockHttpServletRequest included = request("http", "localhost", 8080, "/app", "/api", "/mcp", "/app/api/mcp");
		included.setAttribute(WebUtils.INCLUDE_REQUEST_URI_ATTRIBUTE, "/app/api");
		included.setAttribute(WebUtils.INCLUDE_CONTEXT_PATH_ATTRIBUTE, "/app");
		included.setAttribute(WebUtils.INCLUDE_SERVLET_PATH_ATTRIBUTE, "/api");
		HttpServletRequest plain = request("http", "localhost", 8080, "/app", "/api", "/mcp", "/app/api/mcp");
		for (int i = 0; i < 2; i++) {
			assertThat(McpRequestBaseUrls.of(plain)).isEqualTo("http://localhost:8080/app/api");
			assertThat(McpRequestBaseUrls.of(included)).isEqualTo("http://localhost:8080/app");
		}
	}

	@Test
	void forwardedHeadersCountOnlyWhenTheApplicationHonoursThem() throws Exception {
		MockHttpServletRequest proxied = request("http", "localhost", 8080, "/app", "/mcp", null, "/app/mcp");
		proxied.addHeader("X-Forwarded-Proto", "https");
		proxied.addHeader("X-Forwarded-Host", "agent.example.com");
		proxied.addHeader("X-Forwarded-Port", "443");
		proxied.addHeader("X-Forwarded-Prefix", "/edge");
		// server.forward-headers-strategy=framework: Spring's ForwardedHeaderFilter
		// wraps the request
		MockFilterChain chain = new MockFilterChain();
		new ForwardedHeaderFilter().doFilter(proxied, new MockHttpServletResponse(), chain);
		HttpServletRequest forwarded = (HttpServletRequest) chain.getRequest();
		for (int i = 0; i < 2; i++) {
			assertThat(McpRequestBaseUrls.of(forwarded)).isEqualTo("https://agent.example.com/edge");
			// Not honoured (the default): the headers are not read
			assertThat(McpRequestBaseUrls.of(proxied)).isEqualTo("http://localhost:8080/app");
		}
	}

	private static MockHttpServletRequest request(String scheme, String host, int port, String contextPath,
			String servletPath, String pathInfo, String requestUri) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", requestUri);
		request.setScheme(scheme);
		request.setServerName(host);
		request.setServerPort(port);
		request.setContextPath(contextPath);
		request.setServletPath(servletPath);
		request.setPathInfo(pathInfo);
		return request;
	}

}
