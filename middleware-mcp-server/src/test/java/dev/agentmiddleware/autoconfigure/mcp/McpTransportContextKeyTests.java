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
 * The typed keys of what the transport puts in a request's MCP transport context: each
 * value put under its key is read back as it was put, by the class it belongs to.
 */
class McpTransportContextKeyTests {

	@Test
	void whatTheTransportPutsIsReadBackByEachValuesOwner() {
		ToolPrincipal alice = ToolPrincipal.of("alice");
		CallCancellation cancellation = new CallCancellation();
		McpServerRequests requests = new McpServerRequests();
		Map<String, Object> context = new HashMap<>();
		McpSessionIds.KEY.put(context, "3f1c");
		McpPrincipals.KEY.put(context, alice);
		McpRequestBaseUrls.KEY.put(context, "http://localhost:8080");
		McpRequestCancellations.KEY.put(context, cancellation);
		McpServerRequests.KEY.put(context, requests);

		McpTransportContext transportContext = McpTransportContext.create(context);

		assertThat(McpSessionIds.of(transportContext, "sdk-session")).isEqualTo("3f1c");
		assertThat(McpPrincipals.of(transportContext)).isSameAs(alice);
		assertThat(McpRequestBaseUrls.of(transportContext)).isEqualTo("http://localhost:8080");
		assertThat(McpRequestCancellations.of(transportContext)).isSameAs(cancellation);
		assertThat(McpServerRequests.of(transportContext)).isSameAs(requests);
	}

	@Test
	void aContextTheTransportPutNothingInHasNoValues() {
		McpTransportContext empty = McpTransportContext.create(Map.of());

		assertThat(McpSessionIds.of(empty, "sdk-session")).isEqualTo("sdk-session");
		assertThat(McpPrincipals.of(empty)).isNull();
		assertThat(McpRequestBaseUrls.of(empty)).isNull();
		assertThat(McpRequestCancellations.of(empty)).isNull();
		assertThat(McpServerRequests.of(empty)).isNull();
		assertThat(McpTraceContext.of(empty)).isNull();
	}

	@Test
	void aValueOfAnotherTypeUnderAKeysNameIsNotReadAsTheKeysValue() {
		Map<String, Object> context = Map.of(McpRequestCancellations.KEY.name(), "not a cancellation",
				McpPrincipals.KEY.name(), 42);

		McpTransportContext transportContext = McpTransportContext.create(context);

		assertThat(McpRequestCancellations.of(transportContext)).isNull();
		assertThat(McpPrincipals.of(transportContext)).isNull();
	}

}
