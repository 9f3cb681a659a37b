package dev.agentmiddleware.approval;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import dev.agentmiddleware.tool.ToolInvocation;

/**
 * Asks someone to decide an {@link ApprovalRequest}: a queue that people decide through a
 * REST API or a web console, the MCP client's user through elicitation, or your own code.
 *
 * <p>
 * {@link #requestApproval} must not block: it starts asking and returns a stage that
 * completes with the decision (or exceptionally, which denies the call as a provider
 * failure). The middleware waits at most until the request
 * {@link ApprovalRequest#expiresAt() expires}; a decision that completes later applies to
 * nothing. A provider may also never complete the stage and let the decision arrive
 * through the {@link ApprovalStore} instead, as the queue does. Providers are called
 * concurrently, once per waiting call. <pre>{@code
 * final class SlackApprovalProvider implements ApprovalProvider {
 *     public String name() { return "slack"; }
 *     public boolean supports(ToolInvocation invocation) { return invocation.principal() != null; }
 *     public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
 *         return slack.ask(request.summary()).thenApply((answer) -> answer.yes()
 *                 ? ApprovalDecision.approve(answer.user()) : ApprovalDecision.deny(answer.user(), answer.text()));
 *     }
 * }
 * }</pre>
 */
public interface ApprovalProvider {

	/**
	 * The provider's name, used to order providers in configuration and in messages, such
	 * as {@code queue}.
	 * @return the name
	 */
	String name();

	/**
	 * Whether this provider can ask about this call; the
	 * {@link CompositeApprovalProvider} uses the first provider that can.
	 * @param invocation the call
	 * @return {@code true} if it can
	 */
	default boolean supports(ToolInvocation invocation) {
		return true;
	}

	/**
	 * Starts asking for a decision.
	 * @param request the request, already saved in the store
	 * @param invocation the waiting call, for providers that talk back to its caller
	 * @return the decision, when it comes
	 */
	CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation);

	/**
	 * Lets an {@link ApprovalCallback} decide, on the given executor, so that a slow
	 * callback never holds the waiting call past its timeout. <pre>{@code
	 * ApprovalProvider provider = new CallbackApprovalProvider(callback, executor);
	 * }</pre>
	 */
	public static final class CallbackApprovalProvider implements ApprovalProvider {

		private final ApprovalCallback callback;

		private final Executor executor;

		/**
		 * Creates the provider.
		 * @param callback decides
		 * @param executor runs the callback
		 */
		public CallbackApprovalProvider(ApprovalCallback callback, Executor executor) {
			this.callback = Objects.requireNonNull(callback, "callback");
			this.executor = Objects.requireNonNull(executor, "executor");
		}

		@Override
		public String name() {
			return "callback";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			return CompletableFuture.supplyAsync(() -> {
				try {
					return Objects.requireNonNull(this.callback.decide(request), "approval callback returned null");
				}
				catch (Exception ex) {
					throw new CompletionException(ex);
				}
			}, this.executor);
		}

	}

	/**
	 * Your code decides approvals, as a bean, through {@link CallbackApprovalProvider}.
	 * <pre>{@code
	 * &#64;Bean
	 * ApprovalCallback onlyTempFiles() {
	 *     return (request) -> request.arguments().contains("\"tmp/")
	 *             ? ApprovalDecision.approve("temp-policy") : ApprovalDecision.deny("temp-policy", "only tmp/ files");
	 * }
	 * }</pre>
	 */
	@FunctionalInterface
	public interface ApprovalCallback {

		/**
		 * Decides one request. Runs on a thread of its own; a decision returned after the
		 * request expired applies to nothing, and an exception denies the call as a
		 * provider failure.
		 * @param request the request
		 * @return the decision
		 * @throws Exception if the callback cannot decide
		 */
		ApprovalDecision decide(ApprovalRequest request) throws Exception;

	}

	/**
	 * The in-app approval queue: the request waits in the {@link ApprovalStore}, where
	 * people see it (REST API, web console) and decide it with
	 * {@link ApprovalStore#decide}; the decision reaches the waiting call through the
	 * store, on this application instance or on any other that shares the store.
	 */
	public static final class ApprovalQueueProvider implements ApprovalProvider {

		@Override
		public String name() {
			return "queue";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			// The decision comes through the store, not through this stage.
			return new CompletableFuture<>();
		}

	}

	/**
	 * Asks the first of several providers that {@link ApprovalProvider#supports supports}
	 * the call, in the given order; when none does, the call is denied with "no approver
	 * is configured". <pre>{@code
	 * ApprovalProvider providers = new CompositeApprovalProvider(List.of(elicitation, queue));
	 * }</pre>
	 */
	public static final class CompositeApprovalProvider implements ApprovalProvider {

		private final List<ApprovalProvider> providers;

		/**
		 * Creates the composite.
		 * @param providers the providers, first choice first
		 */
		public CompositeApprovalProvider(List<? extends ApprovalProvider> providers) {
			this.providers = List.copyOf(providers);
		}

		/**
		 * The provider that handles a call.
		 * @param invocation the call
		 * @return the first provider that supports it, or the provider that denies every
		 * call because no approver is configured
		 */
		public ApprovalProvider select(ToolInvocation invocation) {
			for (ApprovalProvider provider : this.providers) {
				if (provider.supports(invocation)) {
					return provider;
				}
			}
			return NoApproverProvider.INSTANCE;
		}

		/**
		 * The providers, first choice first.
		 * @return the providers
		 */
		public List<ApprovalProvider> providers() {
			return this.providers;
		}

		@Override
		public String name() {
			return "composite";
		}

		@Override
		public CompletionStage<ApprovalDecision> requestApproval(ApprovalRequest request, ToolInvocation invocation) {
			return select(invocation).requestApproval(request, invocation);
		}

	}

}
