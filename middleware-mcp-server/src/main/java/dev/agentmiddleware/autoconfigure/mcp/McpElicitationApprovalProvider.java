package dev.agentmiddleware.autoconfigure.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.tool.ToolInvocation;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * Asks the user of the MCP client that made the call, with a form elicitation: a call
 * that came over MCP from a client that declared the elicitation capability gets a form
 * with a decision ({@code approve} or {@code deny}) and an optional reason.
 * {@code accept} with {@code approve} approves; {@code accept} with {@code deny},
 * {@code decline} and {@code cancel} deny.
 *
 * <p>
 * The question is sent on a thread of the given executor, because the MCP SDK's
 * synchronous exchange blocks until the client answers: the waiting call itself never
 * waits past the approval timeout. Keep the approval timeout below the MCP client's
 * request timeout, or the client gives up on the tool call first.
 *
 * <p>
 * On MCP {@code 2026-07-28} (no session, no request to the client) the question is an
 * input request of the call's round, under the key {@value #INPUT_KEY}: asked on the
 * calling thread, it is either answered from the round (the client's retry carries the
 * user's answer, and the decision is taken at once) or ends the round with
 * {@code input_required} (the returned stage fails with the
 * {@link dev.agentmiddleware.tool.ToolInputRequiredException}, and the request stays
 * pending for the retry). <pre>{@code
 * ApprovalProvider elicitation = new McpElicitationApprovalProvider(executor);
 * }</pre>
 */
public final class McpElicitationApprovalProvider implements ApprovalProvider {

	/** The provider's name in {@code agent.middleware.approval.providers}. */
	public static final String NAME = "mcp-elicitation";

	/** The key of the approval's question in the {@code inputRequests} of 2026-07-28. */
	static final String INPUT_KEY = "approval";

	private static final Map<String, Object> SCHEMA = schema();

	private final Executor executor;

	/**
	 * Creates the provider.
	 * @param executor sends the questions and waits for the answers
	 */
	public McpElicitationApprovalProvider(Executor executor) {
		this.executor = Objects.requireNonNull(executor, "executor");
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public boolean supports(ToolInvocation invocation) {
		McpSyncServerExchange exchange = invocation.attribute(McpInvocationAttributes.EXCHANGE);
		McpSchema.ClientCapabilities capabilities = (exchange != null) ? exchange.getClientCapabilities() : null;
		McpSchema.ClientCapabilities.Elicitation elicitation = (capabilities != null) ? capabilities.elicitation()
				: null;
		// A client that declares elicitation without modes supports forms; one that lists
		// modes must list form.
		return elicitation != null && (elicitation.form() != null || elicitation.url() == null);
	}

	// The elicitation capability of the client that made a call over MCP, for the
	// approval link (url mode): null for none (or no MCP call), and on a 2026-07-28
	// call, where the link is not sent (it is decided in the console/REST/link)
	static McpSchema.ClientCapabilities.@Nullable Elicitation elicitation(@Nullable McpSyncServerExchange exchange) {
		if (exchange != null && McpRequestContext.of(exchange.transportContext()).stateless()) {
			return null;
		}
		McpSchema.ClientCapabilities capabilities = (exchange != null) ? exchange.getClientCapabilities() : null;
		return (capabilities != null) ? capabilities.elicitation() : null;
	}

	@Override
	public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
		McpSyncServerExchange exchange = Objects.requireNonNull(invocation.attribute(McpInvocationAttributes.EXCHANGE),
				"the call did not come over MCP");
		String client = McpClientNames.of(exchange);
		if (McpRequestContext.of(exchange.transportContext()).round() != null) {
			// 2026-07-28: an input request of the round, which never blocks
			McpSchema.ElicitFormRequest question = McpSchema.ElicitFormRequest.builder(message(request), SCHEMA)
				.meta(Map.of(McpInputRound.META_KEY, INPUT_KEY))
				.build();
			try {
				return CompletableFuture.completedFuture(decision(exchange.createElicitation(question), client));
			}
			catch (RuntimeException ex) {
				return CompletableFuture.failedFuture(ex);
			}
		}
		McpSchema.ElicitFormRequest question = McpSchema.ElicitFormRequest.builder(message(request), SCHEMA).build();
		return CompletableFuture.supplyAsync(() -> decision(exchange.createElicitation(question), client),
				this.executor);
	}

	static ApprovalDecision decision(McpSchema.ElicitResult answer, String client) {
		String decidedBy = "mcp-client " + client;
		if (answer.action() == McpSchema.ElicitResult.Action.ACCEPT) {
			Map<String, Object> content = (answer.content() != null) ? answer.content() : Map.of();
			Object reason = content.get("reason");
			String text = (reason != null && !reason.toString().isBlank()) ? reason.toString() : null;
			if ("approve".equals(content.get("decision"))) {
				return ApprovalDecision.approve(decidedBy);
			}
			return ApprovalDecision.deny(decidedBy, (text != null) ? text : "the user chose deny");
		}
		if (answer.action() == McpSchema.ElicitResult.Action.DECLINE) {
			return ApprovalDecision.deny(decidedBy, "the user declined");
		}
		return ApprovalDecision.deny(decidedBy, "the user cancelled the approval");
	}

	private static String message(ApprovalRequest request) {
		return "Approve this call of " + request.safety().name().toLowerCase(java.util.Locale.ROOT) + " tool '"
				+ request.toolName() + "'? " + request.summary();
	}

	private static Map<String, Object> schema() {
		Map<String, Object> decision = new LinkedHashMap<>();
		decision.put("type", "string");
		decision.put("title", "Decision");
		decision.put("enum", List.of("approve", "deny"));
		Map<String, Object> reason = new LinkedHashMap<>();
		reason.put("type", "string");
		reason.put("title", "Reason (shown to the model when you deny)");
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("decision", decision);
		properties.put("reason", reason);
		Map<String, Object> schema = new LinkedHashMap<>();
		schema.put("type", "object");
		schema.put("properties", properties);
		schema.put("required", List.of("decision"));
		return Map.copyOf(schema);
	}

}
