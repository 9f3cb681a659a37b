package dev.agentmiddleware.autoconfigure.edge;

import java.util.List;

import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.util.WebUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which requests the edge filter judges: a guarded path and everything under it, the path
 * within the application read as Spring's {@code UrlPathHelper} reads it (path parameters
 * removed, encoded characters decoded, empty segments merged, the context path matched
 * ignoring case, dot segments left as they are).
 */
class EdgeGuardFilterTests {

	private final EdgeGuardFilter filter = new EdgeGuardFilter(HostOriginGuard.local(),
			List.of("/agent/approvals", "actuator/agentmiddleware/"));

	@Test
	void aGuardedPathAndEverythingUnderItAreJudged() throws Exception {
		for (String path : List.of("/agent/approvals", "/agent/approvals/", "/agent/approvals/abc/approve",
				"/actuator/agentmiddleware", "/actuator/agentmiddleware/delete_file")) {
			assertThat(isJudged(request(path))).as(path).isTrue();
		}
		for (String path : List.of("/agent/approvalsx", "/agent", "/agent/", "/mcp", "/", "", "/Agent/Approvals",
				"/actuator/health")) {
			assertThat(isJudged(request(path))).as(path).isFalse();
		}
	}

	@Test
	void pathParametersAreRemovedBeforeMatching() throws Exception {
		for (String path : List.of("/agent/approvals;jsessionid=abc", "/agent;v=1/approvals",
				"/agent/approvals;a=b/console", ";x=y/agent/approvals")) {
			assertThat(isJudged(request(path))).as(path).isTrue();
		}
		assertThat(isJudged(request("/mcp;x=/agent/approvals"))).isFalse();
	}

	@Test
	void encodedCharactersAreDecodedBeforeMatching() throws Exception {
		for (String path : List.of("/agent%2Fapprovals", "/agent/%61pprovals", "%2Fagent%2Fapprovals",
				"/agent/approvals%2F..%2Fx")) {
			assertThat(isJudged(request(path))).as(path).isTrue();
		}
		assertThat(isJudged(request("/agent/approvals%78"))).isFalse();
	}

	@Test
	void emptySegmentsAreMergedBeforeMatching() throws Exception {
		for (String path : List.of("//agent/approvals", "/agent//approvals", "/agent/approvals//console")) {
			assertThat(isJudged(request(path))).as(path).isTrue();
		}
	}

	@Test
	void dotSegmentsAreNotResolvedAsUrlPathHelperDoesNotResolveThem() throws Exception {
		assertThat(isJudged(request("/mcp/../agent/approvals"))).isFalse();
		assertThat(isJudged(request("/agent/approvals/../../mcp"))).isTrue();
		assertThat(isJudged(request("/./agent/approvals"))).isFalse();
	}

	@Test
	void theContextPathIsMatchedIgnoringCaseAndThePathWithinItJudged() throws Exception {
		for (String path : List.of("/app/agent/approvals", "/APP/agent/approvals", "/App/agent/approvals/x",
				"/app;v=1/agent/approvals", "/a%70p/agent/approvals")) {
			assertThat(isJudged(request("/app", path))).as(path).isTrue();
		}
		for (String path : List.of("/app/mcp", "/app", "/app/", "/apps/agent/approvals")) {
			assertThat(isJudged(request("/app", path))).as(path).isFalse();
		}
		// A URI outside the context path is judged whole
		assertThat(isJudged(request("/app", "/agent/approvals"))).isTrue();
	}

	@Test
	void aGuardedRootGuardsEveryPath() throws Exception {
		EdgeGuardFilter everything = new EdgeGuardFilter(HostOriginGuard.local(), List.of("/"));
		for (String path : List.of("/", "", "/mcp", "/agent;x/approvals", "/a%2Fb")) {
			assertThat(isJudged(everything, request(path))).as(path).isTrue();
		}
		assertThat(isJudged(everything, request("/app", "/app"))).isTrue();
	}

	@Test
	void anIncludedRequestIsJudgedByItsIncludedPath() throws Exception {
		MockHttpServletRequest included = request("/mcp");
		included.setAttribute(WebUtils.INCLUDE_REQUEST_URI_ATTRIBUTE, "/agent/approvals");
		assertThat(isJudged(included)).isTrue();
		assertThat(isJudged(request("/app/agent/approvals"))).isFalse();
		MockHttpServletRequest includedContext = request("/app/agent/approvals");
		includedContext.setAttribute(WebUtils.INCLUDE_CONTEXT_PATH_ATTRIBUTE, "/app");
		assertThat(isJudged(includedContext)).isTrue();
	}

	@Test
	void anUnknownCharsetDecodesAPlusAsASpaceAsUrlPathHelperDoes() throws Exception {
		EdgeGuardFilter chat = new EdgeGuardFilter(HostOriginGuard.local(), List.of("/chat room"));
		MockHttpServletRequest unknown = request("/chat+room");
		unknown.setCharacterEncoding("x-no-such-charset");
		assertThat(isJudged(chat, unknown)).isTrue();
		MockHttpServletRequest utf8 = request("/chat+room");
		utf8.setCharacterEncoding("UTF-8");
		assertThat(isJudged(chat, utf8)).isFalse();
	}

	private boolean isJudged(MockHttpServletRequest request) throws Exception {
		return isJudged(this.filter, request);
	}

	// A foreign host is refused on a path the filter judges and passes on any other
	private static boolean isJudged(EdgeGuardFilter filter, MockHttpServletRequest request) throws Exception {
		request.addHeader("Host", "evil.example");
		MockHttpServletResponse response = new MockHttpServletResponse();
		MockFilterChain chain = new MockFilterChain();
		filter.doFilter(request, response, chain);
		boolean refused = response.getStatus() == HttpServletResponse.SC_FORBIDDEN;
		assertThat(chain.getRequest() == null).isEqualTo(refused);
		return refused;
	}

	private static MockHttpServletRequest request(String requestUri) {
		return request("", requestUri);
	}

	private static MockHttpServletRequest request(String contextPath, String requestUri) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", requestUri);
		request.setContextPath(contextPath);
		return request;
	}

}
