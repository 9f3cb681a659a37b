package dev.agentmiddleware.autoconfigure.mcp;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The response stream of one {@code tools/list} request, which leaves out of the answer
 * the tools its caller may not see. The MCP Java SDK answers {@code tools/list} from the
 * server's one tool list, with no hook per request, so the transport filters the answer
 * on its way to the caller whose request it is; every other message passes unchanged.
 */
final class ToolListFilteringTransport implements McpStreamableServerTransport {

	private final McpStreamableServerTransport delegate;

	private final McpToolVisibility visibility;

	private final @Nullable ToolPrincipal caller;

	ToolListFilteringTransport(McpStreamableServerTransport delegate, McpToolVisibility visibility,
			@Nullable ToolPrincipal caller) {
		this.delegate = delegate;
		this.visibility = visibility;
		this.caller = caller;
	}

	@Override
	public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
		return this.delegate.sendMessage(filtered(message));
	}

	@Override
	public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, @Nullable String messageId) {
		return this.delegate.sendMessage(filtered(message), messageId);
	}

	private McpSchema.JSONRPCMessage filtered(McpSchema.JSONRPCMessage message) {
		if (!(message instanceof McpSchema.JSONRPCResponse response) || response.result() == null) {
			return message;
		}
		// Read back whatever form the result has, so that nothing unfiltered gets through
		McpSchema.ListToolsResult list = (response.result() instanceof McpSchema.ListToolsResult result) ? result
				: this.delegate.unmarshalFrom(response.result(), new TypeRef<McpSchema.ListToolsResult>() {
				});
		List<McpSchema.Tool> visible = new ArrayList<>(list.tools().size());
		for (McpSchema.Tool tool : list.tools()) {
			if (this.visibility.isVisible(tool.name(), this.caller)) {
				visible.add(tool);
			}
		}
		return new McpSchema.JSONRPCResponse(response.jsonrpc(), response.id(),
				new McpSchema.ListToolsResult(visible, list.nextCursor(), list.meta()), response.error());
	}

	@Override
	public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
		return this.delegate.unmarshalFrom(data, typeRef);
	}

	@Override
	public Mono<Void> closeGracefully() {
		return this.delegate.closeGracefully();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
