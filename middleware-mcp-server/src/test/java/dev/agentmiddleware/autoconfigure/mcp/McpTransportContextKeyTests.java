package dev.agentmiddleware.autoconfigure.mcp;

import java.util.HashMap;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.mcp.McpSessionIds.McpRequestBaseUrls;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.common.McpTransportContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The typed key of what the transport puts in a request's MCP transport context: the
 * request's one {@link McpRequestContext}, read back as it was put, by its readers.
 */
class McpTransportContextKeyTests {

	@Test
	void whatTheTransportPutsIsReadBackByEachValuesOwner() {
		ToolPrincipal alice = ToolPrincipal.of("alice");
		CallCancellation cancellation = new CallCancellation();
		McpRequestContext request = new McpRequestContext("3f1c", alice, "http://localhost:8080", cancellation, null,
				null, false, null);

		McpTransportContext transportContext = request.transportContext();

		assertThat(McpRequestContext.of(transportContext)).isSameAs(request);
		assertThat(McpSessionIds.of(transportContext, "sdk-session")).isEqualTo("3f1c");
		assertThat(McpPrincipals.of(transportContext)).isSameAs(alice);
		assertThat(McpRequestBaseUrls.of(transportContext)).isEqualTo("http://localhost:8080");
		assertThat(McpRequestContext.of(transportContext).cancellation()).isSameAs(cancellation);
	}

	@Test
	void aContextTheTransportPutNothingInHasNoValues() {
		McpTransportContext empty = McpTransportContext.create(Map.of());

		assertThat(McpSessionIds.of(empty, "sdk-session")).isEqualTo("sdk-session");
		assertThat(McpPrincipals.of(empty)).isNull();
		assertThat(McpRequestBaseUrls.of(empty)).isNull();
		McpRequestContext none = McpRequestContext.of(empty);
		assertThat(none.cancellation()).isNull();
		assertThat(none.serverRequests()).isNull();
		assertThat(none.trace()).isNull();
		assertThat(none.stateless()).isFalse();
		assertThat(none.round()).isNull();
		assertThat(McpRequestContext.of(null)).isSameAs(none);
	}

	@Test
	void aValueOfAnotherTypeUnderTheKeysNameIsNotReadAsTheKeysValue() {
		McpTransportContext transportContext = McpTransportContext
			.create(Map.of(McpRequestContext.KEY.name(), "not a request context"));

		assertThat(McpRequestContext.of(transportContext).principal()).isNull();
		assertThat(McpPrincipals.of(transportContext)).isNull();
	}

	@Test
	void theValueIsPutUnderItsKeyInAMap() {
		McpRequestContext request = new McpRequestContext(null, null, null, null, null, null, true, null);
		Map<String, Object> context = new HashMap<>();

		McpRequestContext.KEY.put(context, request);

		assertThat(context).containsOnlyKeys(McpRequestContext.KEY.name());
		assertThat(McpRequestContext.of(McpTransportContext.create(context)).stateless()).isTrue();
	}

}
