package dev.agentmiddleware.autoconfigure.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ToolListFilteringTransportTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final McpToolVisibility ADMIN_TOOLS_FOR_ADMINS = (toolName, caller) -> !toolName.startsWith("admin_")
			|| (caller != null && caller.hasAuthority("ROLE_ADMIN"));

	private final List<McpSchema.JSONRPCMessage> sent = new ArrayList<>();

	private final McpStreamableServerTransport stream = new RecordingTransport(this.sent);

	@Test
	void theAnswerKeepsOnlyTheToolsTheCallerMaySee() {
		send(new ToolListFilteringTransport(this.stream, ADMIN_TOOLS_FOR_ADMINS, ToolPrincipal.of("bob")),
				new McpSchema.ListToolsResult(List.of(tool("read_file"), tool("admin_purge")), "next-page"));
		McpSchema.ListToolsResult answer = (McpSchema.ListToolsResult) ((McpSchema.JSONRPCResponse) this.sent.get(0))
			.result();
		assertThat(answer.tools()).extracting(McpSchema.Tool::name).containsExactly("read_file");
		assertThat(answer.nextCursor()).isEqualTo("next-page");
	}

	@Test
	void aCallerWithTheAuthoritySeesEveryTool() {
		send(new ToolListFilteringTransport(this.stream, ADMIN_TOOLS_FOR_ADMINS,
				ToolPrincipal.of("alice", Set.of("ROLE_ADMIN"))),
				new McpSchema.ListToolsResult(List.of(tool("read_file"), tool("admin_purge")), null));
		assertThat(((McpSchema.ListToolsResult) ((McpSchema.JSONRPCResponse) this.sent.get(0)).result()).tools())
			.extracting(McpSchema.Tool::name)
			.containsExactly("read_file", "admin_purge");
	}

	@Test
	void anAnswerInAnotherFormIsReadBackAndFilteredAllTheSame() {
		Map<String, Object> raw = Map.of("tools", List.of(Map.of("name", "read_file", "inputSchema", Map.of()),
				Map.of("name", "admin_purge", "inputSchema", Map.of())));
		send(new ToolListFilteringTransport(this.stream, ADMIN_TOOLS_FOR_ADMINS, null), raw);
		assertThat(((McpSchema.ListToolsResult) ((McpSchema.JSONRPCResponse) this.sent.get(0)).result()).tools())
			.extracting(McpSchema.Tool::name)
			.containsExactly("read_file");
	}

	@Test
	void errorsAndOtherMessagesPassUnchanged() {
		ToolListFilteringTransport filtering = new ToolListFilteringTransport(this.stream, ADMIN_TOOLS_FOR_ADMINS,
				null);
		McpSchema.JSONRPCResponse error = new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 1, null,
				new McpSchema.JSONRPCResponse.JSONRPCError(-32603, "boom", null));
		McpSchema.JSONRPCNotification notification = new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
				"notifications/message", Map.of());
		filtering.sendMessage(error).block();
		filtering.sendMessage(notification, "event-1").block();
		assertThat(this.sent).containsExactly(error, notification);
	}

	private static void send(ToolListFilteringTransport transport, Object result) {
		transport.sendMessage(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 7, result, null)).block();
	}

	private static McpSchema.Tool tool(String name) {
		return McpSchema.Tool.builder().name(name).inputSchema(JSON, "{\"type\":\"object\"}").build();
	}

	private record RecordingTransport(List<McpSchema.JSONRPCMessage> sent) implements McpStreamableServerTransport {

		@Override
		public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
			return Mono.fromRunnable(() -> this.sent.add(message));
		}

		@Override
		public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, @Nullable String messageId) {
			return sendMessage(message);
		}

		@Override
		public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
			return JSON.convertValue(data, typeRef);
		}

		@Override
		public Mono<Void> closeGracefully() {
			return Mono.empty();
		}

	}

}
