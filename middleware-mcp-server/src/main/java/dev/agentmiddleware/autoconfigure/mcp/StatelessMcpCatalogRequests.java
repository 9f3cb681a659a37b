package dev.agentmiddleware.autoconfigure.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.util.DefaultMcpUriTemplateManager;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Answers the requests of MCP revision {@code 2026-07-28} that read the
 * {@link StatelessMcpCatalog}, for the {@link StatelessMcpServer}:
 * {@code server/discover}, the lists of tools (those the caller may see), resources,
 * resource templates and prompts, {@code resources/read}, {@code prompts/get} and
 * {@code completion/complete}. A read or prompt handler that asks its client is answered
 * {@code input_required} ({@link StatelessMcpInputs}).
 */
final class StatelessMcpCatalogRequests {

	private static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

	private final McpJsonMapper jsonMapper;

	private final McpToolVisibility toolVisibility;

	private final StatelessMcpTasks tasks;

	private final StatelessMcpInputs inputs;

	private final StatelessMcpResponses responses;

	StatelessMcpCatalogRequests(McpJsonMapper jsonMapper, McpToolVisibility toolVisibility, StatelessMcpTasks tasks,
			StatelessMcpInputs inputs, StatelessMcpResponses responses) {
		this.jsonMapper = jsonMapper;
		this.toolVisibility = toolVisibility;
		this.tasks = tasks;
		this.inputs = inputs;
		this.responses = responses;
	}

	static boolean servesResources(StatelessMcpCatalog catalog) {
		return !catalog.resources().isEmpty() || !catalog.resourceTemplates().isEmpty();
	}

	ServerResponse discover(Object id, StatelessMcpCatalog catalog, McpSchema.ServerCapabilities capabilities) {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("supportedVersions", StatelessMcpServer.PROTOCOL_VERSIONS);
		result.put("capabilities", this.tasks.capabilities(capabilities, !catalog.tools().isEmpty()));
		if (catalog.instructions() != null) {
			result.put("instructions", catalog.instructions());
		}
		result.put("_meta", Map.of(META_SERVER_INFO, catalog.serverInfo()));
		return this.responses.result(id, StatelessMcpServer.METHOD_DISCOVER, result);
	}

	ServerResponse listTools(Object id, StatelessMcpCatalog catalog, @Nullable ToolPrincipal principal) {
		List<Map<String, Object>> tools = catalog.tools()
			.stream()
			.map(SyncToolSpecification::tool)
			.filter((tool) -> this.toolVisibility.isVisible(tool.name(), principal))
			.map(this.tasks::listed)
			.toList();
		return this.responses.result(id, McpSchema.METHOD_TOOLS_LIST, Map.of("tools", tools));
	}

	ServerResponse listResources(Object id, StatelessMcpCatalog catalog) {
		return this.responses.result(id, McpSchema.METHOD_RESOURCES_LIST,
				Map.of("resources", catalog.resources().stream().map(SyncResourceSpecification::resource).toList()));
	}

	ServerResponse listResourceTemplates(Object id, StatelessMcpCatalog catalog) {
		return this.responses.result(id, McpSchema.METHOD_RESOURCES_TEMPLATES_LIST,
				Map.of("resourceTemplates",
						catalog.resourceTemplates()
							.stream()
							.map(SyncResourceTemplateSpecification::resourceTemplate)
							.toList()));
	}

	ServerResponse listPrompts(Object id, StatelessMcpCatalog catalog) {
		return this.responses.result(id, McpSchema.METHOD_PROMPT_LIST,
				Map.of("prompts", catalog.prompts().stream().map(SyncPromptSpecification::prompt).toList()));
	}

	ServerResponse read(StatelessMcpCatalog catalog, McpSchema.JSONRPCRequest rpc, Map<?, ?> params,
			StatelessMcpRequestMeta meta, ServerRequest request, @Nullable ToolPrincipal principal,
			@Nullable McpInputRound round) {
		return rounded(round, rpc, params, principal,
				() -> read(catalog, params, meta.exchange(this.jsonMapper, request, principal, null, null, round)));
	}

	ServerResponse getPrompt(StatelessMcpCatalog catalog, McpSchema.JSONRPCRequest rpc, Map<?, ?> params,
			StatelessMcpRequestMeta meta, ServerRequest request, @Nullable ToolPrincipal principal,
			@Nullable McpInputRound round) {
		McpSchema.GetPromptRequest get = this.jsonMapper.convertValue(params, McpSchema.GetPromptRequest.class);
		SyncPromptSpecification prompt = (get.name() != null) ? catalog.prompt(get.name()) : null;
		if (prompt == null) {
			return this.responses.error(HttpStatus.OK, rpc.id(), HardenedStreamableHttpTransport.INVALID_PARAMS,
					"Invalid params: no such prompt", null);
		}
		return rounded(round, rpc, params, principal, () -> prompt.promptHandler()
			.apply(meta.exchange(this.jsonMapper, request, principal, null, null, round), get));
	}

	ServerResponse complete(StatelessMcpCatalog catalog, McpSchema.JSONRPCRequest rpc, Map<?, ?> params,
			StatelessMcpRequestMeta meta, ServerRequest request, @Nullable ToolPrincipal principal) {
		McpSchema.CompleteRequest complete = this.jsonMapper.convertValue(params, McpSchema.CompleteRequest.class);
		SyncCompletionSpecification completion = (complete.ref() != null) ? catalog.completion(complete.ref()) : null;
		if (completion == null) {
			return this.responses.error(HttpStatus.OK, rpc.id(), HardenedStreamableHttpTransport.INVALID_PARAMS,
					"Invalid params: no completion for this reference", null);
		}
		return this.responses.result(rpc.id(), rpc.method(), completion.completionHandler()
			.apply(meta.exchange(this.jsonMapper, request, principal, null, null), complete));
	}

	// The result of a handler that may ask its client: input_required when it did
	private ServerResponse rounded(@Nullable McpInputRound round, McpSchema.JSONRPCRequest rpc, Map<?, ?> params,
			@Nullable ToolPrincipal principal, Supplier<Object> handler) {
		Object result;
		try {
			result = handler.get();
		}
		catch (RuntimeException ex) {
			Map<String, Object> inputRequired = this.inputs.ended(round, rpc.method(), params,
					(principal != null) ? principal.name() : null);
			if (inputRequired == null) {
				throw ex;
			}
			return this.responses.json(HttpStatus.OK, McpSchema.JSONRPCResponse.result(rpc.id(), inputRequired));
		}
		StatelessMcpInputs.checkAnswers(round);
		return this.responses.result(rpc.id(), rpc.method(), result);
	}

	private McpSchema.ReadResourceResult read(StatelessMcpCatalog catalog, Map<?, ?> params,
			McpSyncServerExchange exchange) {
		McpSchema.ReadResourceRequest read = this.jsonMapper.convertValue(params, McpSchema.ReadResourceRequest.class);
		String uri = read.uri();
		if (uri != null) {
			for (SyncResourceSpecification resource : catalog.resources()) {
				if (resource.resource().uri().equals(uri)) {
					return resource.readHandler().apply(exchange, read);
				}
			}
			for (SyncResourceTemplateSpecification template : catalog.resourceTemplates()) {
				if (new DefaultMcpUriTemplateManager(template.resourceTemplate().uriTemplate()).matches(uri)) {
					return template.readHandler().apply(exchange, read);
				}
			}
		}
		// SEP-2164: -32602 with the URI, never an empty result
		throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(HardenedStreamableHttpTransport.INVALID_PARAMS,
				"Resource not found", (uri != null) ? Map.of("uri", uri) : null));
	}

}
