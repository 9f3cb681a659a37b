package dev.agentmiddleware.autoconfigure.mcp;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.autoconfigure.mcp.McpSessionIds.McpRequestBaseUrls;
import dev.agentmiddleware.tool.ToolInvocation;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Approval by link: a call that came over MCP from a client that declared URL-mode
 * elicitation ({@code capabilities.elicitation.url}) gets an {@code elicitation/create}
 * with {@code mode: "url"} whose {@code url} is the approval console's page of that one
 * request ({@code {base}{web.path}/console/requests/{id}}). The client shows the link to
 * its user, who passes it to an approver (or is one); the decision is made in the console
 * or through the REST API, by a user with the approver role, never by the calling client,
 * and the rule that nobody approves their own call holds there. The request waits in the
 * {@link ApprovalStore} exactly as with the queue, and the decision reaches the call
 * through the store.
 *
 * <p>
 * The client's answer: {@code accept} only means the link was opened, and the call keeps
 * waiting; {@code decline} and {@code cancel} withdraw the request, which denies the call
 * (the caller may always deny its own request). A client that does not answer, or that
 * fails, changes nothing: the request still waits for an approver until the approval
 * timeout. When the wait ends (decided, timed out, abandoned) the client gets
 * {@code notifications/elicitation/complete} with the {@code elicitationId} (the request
 * id), through the MCP transport's {@link McpServerTransportProviderBase#notifyClient},
 * if there is one.
 *
 * <p>
 * The link's base is the configured public URL, or else the base URL of the HTTP request
 * that carried the call (recorded by the starter's MCP transport); without either the
 * provider does not support the call, and the next provider is asked. <pre>{@code
 * ApprovalProvider link = new McpUrlElicitationApprovalProvider(executor, "/agent/approvals",
 *         URI.create("https://agents.example.com"), () -> transport);
 * }</pre>
 */
public final class McpUrlElicitationApprovalProvider implements ApprovalProvider {

	/** The provider's name in {@code agent.middleware.approval.providers}. */
	public static final String NAME = "link";

	private static final Logger logger = LoggerFactory.getLogger(McpUrlElicitationApprovalProvider.class);

	private static final Duration NOTIFY_TIMEOUT = Duration.ofSeconds(5);

	private final ExecutorService executor;

	private final String consolePath;

	private final @Nullable String publicUrl;

	private final Supplier<@Nullable McpServerTransportProviderBase> transport;

	/**
	 * Creates the provider.
	 * @param executor sends the links (the MCP SDK's synchronous exchange blocks until
	 * the client answers)
	 * @param webPath the approval REST API's path, such as {@code /agent/approvals}; the
	 * console is under it
	 * @param publicUrl the application's base URL as approvers reach it, or {@code null}
	 * to take the base URL of the HTTP request that carried the call
	 * @param transport the MCP transport, for {@code notifications/elicitation/complete};
	 * may supply {@code null}
	 */
	public McpUrlElicitationApprovalProvider(ExecutorService executor, String webPath, @Nullable URI publicUrl,
			Supplier<@Nullable McpServerTransportProviderBase> transport) {
		this.executor = Objects.requireNonNull(executor, "executor");
		this.consolePath = Objects.requireNonNull(webPath, "webPath") + "/console/requests/";
		this.publicUrl = (publicUrl != null) ? withoutTrailingSlash(publicUrl.toString()) : null;
		this.transport = Objects.requireNonNull(transport, "transport");
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public boolean supports(ToolInvocation invocation) {
		McpSyncServerExchange exchange = invocation.attribute(McpInvocationAttributes.EXCHANGE);
		McpSchema.ClientCapabilities.Elicitation elicitation = McpElicitationApprovalProvider.elicitation(exchange);
		// Only a client that lists the url mode may be sent one (MCP 2025-11-25), with a
		// link it can be given
		return elicitation != null && elicitation.url() != null && exchange != null && baseUrl(exchange) != null;
	}

	@Override
	public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
		McpSyncServerExchange exchange = Objects.requireNonNull(invocation.attribute(McpInvocationAttributes.EXCHANGE),
				"the call did not come over MCP");
		String link = link(Objects.requireNonNull(baseUrl(exchange), "no base URL"), request.id());
		McpSchema.ElicitUrlRequest question = McpSchema.ElicitUrlRequest.builder(message(request), link, request.id())
			.build();
		String client = McpClientNames.of(exchange);
		// Completed only by the client withdrawing the request; an approver's decision
		// comes through the store, and
		// the wait then cancels this stage
		CompletableFuture<ApprovalDecision> withdrawal = new CompletableFuture<>();
		Future<?> asking = this.executor.submit(() -> ask(exchange, question, client, withdrawal));
		String sessionId = invocation.sessionId();
		withdrawal.whenComplete((decision, failure) -> {
			if (failure instanceof CancellationException) {
				asking.cancel(true);
				if (sessionId != null) {
					complete(sessionId, request.id());
				}
			}
		});
		return withdrawal;
	}

	/**
	 * The console page of one request.
	 * @param baseUrl the application's base URL, without a trailing slash
	 * @param requestId the request id
	 * @return the link
	 */
	String link(String baseUrl, String requestId) {
		return baseUrl + this.consolePath + requestId;
	}

	static @Nullable ApprovalDecision withdrawal(McpSchema.ElicitResult answer, String client) {
		return switch (answer.action()) {
			case ACCEPT -> null;
			case DECLINE -> ApprovalDecision.deny("mcp-client " + client,
					"the caller declined the approval link and withdrew the request");
			case CANCEL -> ApprovalDecision.deny("mcp-client " + client,
					"the caller dismissed the approval link and withdrew the request");
		};
	}

	private void ask(McpSyncServerExchange exchange, McpSchema.ElicitUrlRequest question, String client,
			CompletableFuture<ApprovalDecision> withdrawal) {
		try {
			McpSchema.ElicitResult answer = exchange.createElicitation(question);
			ApprovalDecision withdrawn = withdrawal(answer, client);
			if (withdrawn != null) {
				withdrawal.complete(withdrawn);
			}
			else {
				logger.debug("MCP client '{}' accepted the approval link of request {}", client,
						question.elicitationId());
			}
		}
		catch (RuntimeException ex) {
			if (!withdrawal.isDone()) {
				// The request still waits for an approver in the console; only the link
				// did not reach the client
				logger.warn(
						"The approval link of request {} was not answered by MCP client '{}' ({}); the request "
								+ "still waits for an approver in the console",
						question.elicitationId(), client, ex.getClass().getSimpleName());
			}
		}
	}

	private void complete(String sessionId, String elicitationId) {
		McpServerTransportProviderBase transport = this.transport.get();
		if (transport == null) {
			return;
		}
		try {
			transport
				.notifyClient(sessionId, McpSchema.METHOD_NOTIFICATION_ELICITATION_COMPLETE,
						new McpSchema.ElicitationCompleteNotification(elicitationId))
				.block(NOTIFY_TIMEOUT);
		}
		catch (RuntimeException ex) {
			logger.debug("notifications/elicitation/complete for request {} was not sent: {}", elicitationId,
					ex.getClass().getSimpleName());
		}
	}

	private @Nullable String baseUrl(McpSyncServerExchange exchange) {
		if (this.publicUrl != null) {
			return this.publicUrl;
		}
		String fromRequest = McpRequestBaseUrls.of(exchange.transportContext());
		return (fromRequest != null) ? withoutTrailingSlash(fromRequest) : null;
	}

	private static String message(ApprovalRequest request) {
		return "Call of " + request.safety().name().toLowerCase(Locale.ROOT) + " tool '" + request.toolName()
				+ "' waits for a person's approval. Open the link to see this request in the approval console, "
				+ "where an approver decides: " + request.summary();
	}

	private static String withoutTrailingSlash(String url) {
		return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
	}

}
