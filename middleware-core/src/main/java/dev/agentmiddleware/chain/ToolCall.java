package dev.agentmiddleware.chain;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ClientRequest;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolMiddlewareException;
import dev.agentmiddleware.tool.UnboundArguments;

import org.jspecify.annotations.Nullable;

/**
 * One running call of a tool: the per-call state of a pipeline, kept apart from the
 * {@link ToolInvocation}, which stays an immutable value. Layers report what they decided
 * to the call, and the layers and observers that read outcomes (the observer tier,
 * logging, observation, interceptors) learn from it how the call ended.
 *
 * <p>
 * <b>Reporting a decision</b> is the one way a middleware tells the rest of the chain
 * that it settled the call without the tool, or refused it; it costs nothing when nothing
 * reads outcomes: <pre>{@code
 * ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
 *     return (invocation) -> {
 *         Object cached = lookUp(invocation);
 *         if (cached != null) {
 *             ToolCall.current().decide(CallOutcome.CACHED, name());
 *             return cached;
 *         }
 *         return next.handle(invocation);
 *     };
 * }
 * }</pre> A middleware that refuses a call throws a {@link ToolMiddlewareException}
 * naming itself ({@code new ToolDeniedException(tool, "approval", reason)}); the
 * exception is the decision, nothing else needs reporting.
 *
 * <p>
 * <b>Reading the outcome</b>: a layer that reports how a call ended proceeds through
 * {@link #observe(ToolInvocation, ToolHandler, Listener, Object)}, the one place where
 * the call is created when no layer further out created it and where the outcome is
 * derived. The listener is built once per tool; what it needs of one call travels as the
 * attachment, so that observing allocates nothing of its own: <pre>{@code
 * private static final ToolCall.Listener<Observation> ENDED = (observation, invocation, outcome, decidedBy,
 *         result, error) -> {
 *     ...
 * };
 *
 * return ToolCall.observe(invocation, next, ENDED, observation);
 * }</pre>
 *
 * <p>
 * <b>Cancellation</b>: the call carries its {@link CallCancellation}, the one its caller
 * gave ({@link ToolPipeline#call(ToolInvocation, CallCancellation)}); a layer that waits
 * ends its wait when the call is cancelled: <pre>{@code
 * CallCancellation cancellation = ToolCall.current().cancellation();
 * try (CallCancellation.Registration stop = cancellation.onCancel(() -> attempt.cancel(false))) {
 *     return attempt.get();
 * }
 * }</pre>
 *
 * <p>
 * <b>Lifecycle and threads:</b> the call is the one carrier of what crosses threads. It
 * is created once per call, by the pipeline for a call its caller can cancel, else by the
 * outermost layer that reads outcomes, and bound to the calling thread until the call
 * ends (as gRPC binds its {@code Context}); a call with neither needs no carrier, and
 * {@link #current()} is then an inert call that records nothing and is never cancelled. A
 * layer that moves the rest of the chain to another thread carries the call, and so its
 * cancellation, along with {@link #wrap(Callable)}, the one wrap there is. The tool's own
 * code runs with the call bound; a pipeline entered from inside it (a tool calling
 * another tool) gets a call of its own, cancelled with the call it runs in. Decisions may
 * come from several threads (a timed-out attempt still running); the first one wins. What
 * changes while a call runs lives here, never on the invocation: the binding step's bound
 * invocation is kept here, and layers outside that step are told of the call's end with
 * it.
 */
public final class ToolCall {

	private static final ToolCall INERT = new ToolCall(false, CallCancellation.NEVER);

	private static final Listener<Object> NO_LISTENER = (attachment, invocation, outcome, decidedBy, result, error) -> {
	};

	private final boolean recording;

	private final CallCancellation cancellation;

	private volatile @Nullable CallOutcome decidedOutcome;

	private volatile @Nullable String decidedBy;

	private volatile boolean toolExecuted;

	private volatile @Nullable ToolExecution aroundTool;

	// What the tool's own code last returned, for the diagnosis of a broken result
	// contract; plain fields, read by
	// the thread the call returns on.
	private boolean toolReturned;

	private @Nullable Object toolResult;

	// The invocation the binding step made of unbound arguments, if any.
	private volatile @Nullable ToolInvocation bound;

	// The approval involved in this call, for its record: the request a person was asked,
	// or who granted the
	// session grant that let it through.
	private volatile @Nullable String approvalRequestId;

	private volatile @Nullable String approvalGrantedBy;

	// What runs around the tool's requests to its client, outermost first, and the
	// requests made so far: both
	// guarded by this, and null until the first one.
	private @Nullable List<ClientRequestExecution> aroundClientRequests;

	private @Nullable List<ClientRequest> clientRequests;

	// Set by an interceptor that skips, read by the interceptors outside it; reset before
	// each proceed.
	volatile boolean skipped;

	private ToolCall(boolean recording, CallCancellation cancellation) {
		this.recording = recording;
		this.cancellation = cancellation;
	}

	/**
	 * The call running on this thread.
	 * @return the call; an inert call that records nothing and is never cancelled when no
	 * layer of the running pipeline reads outcomes and the caller cannot cancel the call,
	 * or outside a pipeline
	 */
	public static ToolCall current() {
		ToolCall call = ThreadBinding.current().call;
		return (call != null) ? call : INERT;
	}

	/**
	 * The cancellation of this call, for a layer or a tool that waits: the one the caller
	 * gave ({@link ToolPipeline#call(ToolInvocation, CallCancellation)},
	 * {@link ToolPipeline#callAsync}), for a pipeline entered from a tool's code that of
	 * the call it runs in, else one that is never cancelled. <pre>{@code
	 * CallCancellation cancellation = ToolCall.current().cancellation();
	 * if (cancellation.isCancelled()) {
	 *     throw new ToolCancelledException(tool, name(), cancellation.reason(), null);
	 * }
	 * boolean cancelledMeanwhile = cancellation.await(backoff);   // a backoff that ends early
	 * }</pre> On another thread the call, and with it its cancellation, is found only
	 * where {@link #wrap(Callable)} carried it.
	 * @return the cancellation; one that is never cancelled on the inert call
	 */
	public CallCancellation cancellation() {
		return this.cancellation;
	}

	/**
	 * Reports that a middleware decided the outcome of this call:
	 * {@link CallOutcome#CACHED} or {@link CallOutcome#SHORT_CIRCUITED} for a call it
	 * answered itself, or the outcome of a refusal it is about to throw. The first report
	 * wins, so an outer layer cannot overwrite what an inner one decided.
	 * @param outcome the outcome
	 * @param middleware the name of the deciding middleware
	 */
	public void decide(CallOutcome outcome, String middleware) {
		if (this.recording && this.decidedOutcome == null) {
			this.decidedBy = middleware;
			this.decidedOutcome = outcome;
		}
	}

	/**
	 * The outcome a middleware decided, if any.
	 * @return the decided outcome, or {@code null}
	 */
	public @Nullable CallOutcome decidedOutcome() {
		return this.decidedOutcome;
	}

	/**
	 * The middleware that decided the outcome, if any.
	 * @return the middleware name, or {@code null}
	 */
	public @Nullable String decidedBy() {
		return this.decidedBy;
	}

	/**
	 * Reports the approval involved in this call, for its record (the audit trail links
	 * the approval to the call with it): the id of the request a person was asked, or who
	 * granted the session grant that let the call through without asking. Does nothing on
	 * the inert call.
	 * @param requestId the approval request's id, or {@code null} when nobody was asked
	 * @param grantedBy who granted the session grant that let the call through, or
	 * {@code null} when none did
	 */
	public void approval(@Nullable String requestId, @Nullable String grantedBy) {
		if (this.recording) {
			this.approvalRequestId = requestId;
			this.approvalGrantedBy = grantedBy;
		}
	}

	/**
	 * The id of the approval request a person was asked about this call, if any.
	 * @return the request id, or {@code null}
	 */
	public @Nullable String approvalRequestId() {
		return this.approvalRequestId;
	}

	/**
	 * Who granted the session grant that let this call through without asking, if one
	 * did.
	 * @return the grantor, or {@code null}
	 */
	public @Nullable String approvalGrantedBy() {
		return this.approvalGrantedBy;
	}

	/**
	 * Whether the tool's own code ran (at least once).
	 * @return {@code true} once the pipeline reached the tool
	 */
	public boolean toolExecuted() {
		return this.toolExecuted;
	}

	/**
	 * Runs {@code around} around every run of the tool's own code in this call (each
	 * attempt of a retried call), on the thread that runs it: for a layer that does
	 * something only for calls that reach the tool, such as starting an observation.
	 * Layers that register earlier (further out) run further out. Does nothing on the
	 * inert call. <pre>{@code
	 * ToolCall.current().aroundTool((invocation, tool) -> {
	 *     try (Observation.Scope scope = observation().openScope()) {
	 *         return tool.handle(invocation);
	 *     }
	 * });
	 * }</pre>
	 * @param around what runs around the tool; must call {@code tool} to run it
	 */
	public void aroundTool(ToolExecution around) {
		if (!this.recording) {
			return;
		}
		synchronized (this) {
			ToolExecution outer = this.aroundTool;
			this.aroundTool = (outer != null)
					? (invocation, tool) -> outer.run(invocation, (inner) -> around.run(inner, tool)) : around;
		}
	}

	/**
	 * Runs {@code around} around every request the tool's code makes to its client in
	 * this call ({@link ToolClient#elicit elicitation}, {@link ToolClient#sample
	 * sampling}), on the thread that makes it, and tells it of each message the tool logs
	 * to its client: for a layer that observes them. Layers that register earlier run
	 * further out; registering the same instance again does nothing. Does nothing on the
	 * inert call.
	 * @param around what runs around each request
	 */
	public void aroundClientRequests(ClientRequestExecution around) {
		if (!this.recording) {
			return;
		}
		synchronized (this) {
			List<ClientRequestExecution> arounds = this.aroundClientRequests;
			if (arounds == null) {
				this.aroundClientRequests = List.of(around);
			}
			else if (!arounds.contains(around)) {
				List<ClientRequestExecution> more = new ArrayList<>(arounds);
				more.add(around);
				this.aroundClientRequests = List.copyOf(more);
			}
		}
	}

	/**
	 * Makes one request of the tool to its client, inside what
	 * {@link #aroundClientRequests} registered, and keeps how it ended for the call's
	 * record ({@link #clientRequests()}); on the inert call it only makes it. The one
	 * caller is the client a tool's code is given
	 * ({@code dev.agentmiddleware.logging.ToolClientLog}).
	 * @param invocation the call's invocation
	 * @param kind the kind of request
	 * @param request sends the request and tells how it ended; must not throw (the caller
	 * keeps what the request threw and throws it once this returns)
	 * @return what {@code request} returned
	 */
	public ClientRequest clientRequest(ToolInvocation invocation, ClientRequest.Kind kind,
			Supplier<ClientRequest> request) {
		if (!this.recording) {
			return request.get();
		}
		List<ClientRequestExecution> arounds;
		synchronized (this) {
			arounds = this.aroundClientRequests;
		}
		ClientRequest ended = (arounds != null) ? runAround(arounds, 0, invocation, kind, request) : request.get();
		synchronized (this) {
			List<ClientRequest> requests = this.clientRequests;
			if (requests == null) {
				requests = new ArrayList<>(2);
				this.clientRequests = requests;
			}
			requests.add(ended);
		}
		return ended;
	}

	private static ClientRequest runAround(List<ClientRequestExecution> arounds, int index, ToolInvocation invocation,
			ClientRequest.Kind kind, Supplier<ClientRequest> request) {
		if (index == arounds.size()) {
			return request.get();
		}
		return arounds.get(index).run(invocation, kind, () -> runAround(arounds, index + 1, invocation, kind, request));
	}

	/**
	 * Tells what {@link #aroundClientRequests} registered that the tool logged a message
	 * to its client; does nothing on the inert call.
	 * @param invocation the call's invocation
	 * @param level the message's level
	 */
	public void clientLogged(ToolInvocation invocation, ToolClient.Level level) {
		if (!this.recording) {
			return;
		}
		List<ClientRequestExecution> arounds;
		synchronized (this) {
			arounds = this.aroundClientRequests;
		}
		if (arounds != null) {
			for (ClientRequestExecution around : arounds) {
				around.logged(invocation, level);
			}
		}
	}

	/**
	 * The requests the tool made to its client so far in this call, in order.
	 * @return the requests; empty on the inert call
	 */
	public List<ClientRequest> clientRequests() {
		synchronized (this) {
			List<ClientRequest> requests = this.clientRequests;
			return (requests != null) ? List.copyOf(requests) : List.of();
		}
	}

	/**
	 * Whether this call records decisions: {@code false} for the inert call of pipelines
	 * where nothing reads them and nothing can cancel the call.
	 * @return {@code true} for every call but the inert one
	 */
	public boolean isRecording() {
		return this.recording;
	}

	/**
	 * Wraps a task so that it runs with this call bound to its thread, for a layer that
	 * runs the rest of the chain on another thread: there, decisions are reported to this
	 * call, its {@link #cancellation()} is the caller's, and the tool, once cancelled,
	 * does not start (or, if it allows it, is interrupted). The one way to carry a call
	 * across threads. <pre>{@code
	 * executor.submit(ToolCall.current().wrap(() -> next.handle(invocation)));
	 * }</pre>
	 * @param task the task
	 * @param <T> the result type
	 * @return the wrapped task; the task itself for the inert call, which has nothing to
	 * carry
	 */
	public <T> Callable<T> wrap(Callable<T> task) {
		if (!this.recording) {
			return task;
		}
		return () -> {
			ThreadBinding binding = ThreadBinding.current();
			ToolCall previous = binding.call;
			binding.call = this;
			try {
				return task.call();
			}
			finally {
				binding.call = previous;
			}
		};
	}

	/**
	 * Runs the rest of the chain and tells the listener how the call ended, once: on the
	 * call running on this thread, or, when no layer further out reads outcomes, on a
	 * call created here and bound for the rest of the chain.
	 * @param invocation the call's invocation
	 * @param next the rest of the chain
	 * @param listener told how the call ended, before the result or exception is passed
	 * on
	 * @param attachment what the listener needs of this call, passed back to it as it is
	 * @param <A> the type of the attachment
	 * @return what the rest of the chain returned
	 * @throws Exception what the rest of the chain threw, unchanged
	 */
	public static <A> @Nullable Object observe(ToolInvocation invocation, ToolHandler next, Listener<A> listener,
			A attachment) throws Exception {
		ThreadBinding binding = ThreadBinding.current();
		ToolCall call = binding.call;
		if (call != null) {
			return call.proceed(invocation, next, listener, attachment);
		}
		call = new ToolCall(true, CallCancellation.NEVER);
		binding.call = call;
		try {
			return call.proceed(invocation, next, listener, attachment);
		}
		finally {
			binding.call = null;
		}
	}

	private <A> @Nullable Object proceed(ToolInvocation invocation, ToolHandler next, Listener<A> listener,
			A attachment) throws Exception {
		Object result;
		try {
			result = next.handle(invocation);
		}
		catch (Exception | Error ex) {
			listener.callEnded(attachment, asBound(invocation), CallOutcome.ofFailure(ex), failedDecidedBy(ex), null,
					ex);
			throw ex;
		}
		listener.callEnded(attachment, asBound(invocation), returnedOutcome(), returnedDecidedBy(), result, null);
		return result;
	}

	/**
	 * Whether an invocation holds the very arguments the binding step bound for this call
	 * (no layer replaced them), so that a tool taking its input as sent can be given it
	 * as sent:
	 * {@code String input = ToolCall.current().hasArgumentsAsBound(invocation) ? json : toJson(invocation)}.
	 * @param invocation the invocation the tool's code got
	 * @return {@code true} if so; {@code false} otherwise, and always on the inert call
	 */
	public boolean hasArgumentsAsBound(ToolInvocation invocation) {
		ToolInvocation bound = this.bound;
		return bound != null && bound.arguments() == invocation.arguments();
	}

	// Keeps the invocation the binding step made of this call's unbound arguments; does
	// nothing on the inert call.
	void bound(ToolInvocation invocation) {
		if (this.recording) {
			this.bound = invocation;
		}
	}

	// What a listener is told of: for a still unbound invocation, the one the binding
	// step made of it.
	private ToolInvocation asBound(ToolInvocation invocation) {
		ToolInvocation bound = this.bound;
		return (bound != null && invocation.attribute(UnboundArguments.ATTRIBUTE) != null) ? bound : invocation;
	}

	// Runs the rest of the chain with a call bound, creating one when none is, for this
	// package's layers.
	static @Nullable Object withCall(ToolInvocation invocation, ToolHandler next) throws Exception {
		return (ThreadBinding.current().call != null) ? next.handle(invocation)
				: observe(invocation, next, NO_LISTENER, NO_LISTENER);
	}

	// Wraps the tool's own handler, the one frame around it: marks the running call as
	// executed, guarded by the call's cancellation if it can be cancelled
	// (CallCancellation.guard); one thread-local look-up for both.
	static ToolHandler markingExecution(ToolDescriptor tool, ToolHandler terminal) {
		return (invocation) -> {
			ToolCall call = ThreadBinding.current().call;
			if (call == null) {
				return terminal.handle(invocation);
			}
			CallCancellation cancellation = call.cancellation;
			return cancellation.cancellable ? cancellation.guard(tool, invocation, call, terminal)
					: call.runTool(invocation, terminal);
		};
	}

	// Runs the tool's own code once in this call: marked as executed, inside what
	// aroundTool registered.
	@Nullable Object runTool(ToolInvocation invocation, ToolHandler terminal) throws Exception {
		this.toolExecuted = true;
		ToolExecution around = this.aroundTool;
		Object result = (around != null) ? around.run(invocation, terminal) : terminal.handle(invocation);
		this.toolResult = result;
		this.toolReturned = true;
		return result;
	}

	// Whether the tool's own code returned (its last run, if it ran several times); false
	// on the inert call.
	boolean toolReturned() {
		return this.toolReturned;
	}

	// What the tool's own code last returned, when toolReturned().
	@Nullable Object toolResult() {
		return this.toolResult;
	}

	// Runs a pipeline's head in a call of its own: a pipeline entered from a tool's code
	// does not report to the call it runs in. Its call carries the cancellation its
	// caller
	// gave, linked to that of the call it runs in, else the latter; with neither, no call
	// is bound until a layer that reads outcomes creates one.
	static @Nullable Object detached(ToolInvocation invocation, ToolHandler head,
			@Nullable CallCancellation cancellation) throws Exception {
		ThreadBinding binding = ThreadBinding.current();
		ToolCall outer = binding.call;
		if (cancellation == null) {
			if (outer == null) {
				return head.handle(invocation);
			}
			binding.call = outer.cancellation.cancellable ? new ToolCall(true, outer.cancellation) : null;
			try {
				return head.handle(invocation);
			}
			finally {
				binding.call = outer;
			}
		}
		try (CallCancellation.Registration linked = cancellation
			.linkedTo((outer != null) ? outer.cancellation : null)) {
			binding.call = new ToolCall(true, cancellation);
			try {
				return head.handle(invocation);
			}
			finally {
				binding.call = outer;
			}
		}
	}

	// The outcome of a call that returned normally: the outcome a middleware decided
	// (such as CACHED), else SUCCEEDED
	// if the tool ran, else SHORT_CIRCUITED. A decided FAILED does not count: a hook that
	// failed and was then
	// recovered from by an outer layer does not decide a returned call.
	CallOutcome returnedOutcome() {
		CallOutcome decided = this.decidedOutcome;
		if (decided != null && decided != CallOutcome.FAILED) {
			return decided;
		}
		return this.toolExecuted ? CallOutcome.SUCCEEDED : CallOutcome.SHORT_CIRCUITED;
	}

	// The middleware that decided the returnedOutcome(), or null when the tool's own run
	// did.
	@Nullable String returnedDecidedBy() {
		CallOutcome decided = this.decidedOutcome;
		boolean decides = decided != null && decided != CallOutcome.FAILED;
		return (decides || !this.toolExecuted) ? this.decidedBy : null;
	}

	// The middleware that decided the outcome of a call that threw: the one named by a
	// ToolMiddlewareException, else
	// the one that reported a decision.
	@Nullable String failedDecidedBy(Throwable error) {
		if (error instanceof ToolMiddlewareException middlewareException && middlewareException.decidedBy() != null) {
			return middlewareException.decidedBy();
		}
		return this.decidedBy;
	}

	@Override
	public String toString() {
		return this.recording ? "ToolCall[decided=" + this.decidedOutcome + ", by=" + this.decidedBy + ", toolExecuted="
				+ this.toolExecuted + "]" : "ToolCall[inert]";
	}

	/**
	 * Told how a call ended, by
	 * {@link ToolCall#observe(ToolInvocation, ToolHandler, Listener, Object)}.
	 *
	 * @param <A> the type of the attachment
	 */
	@FunctionalInterface
	public interface Listener<A> {

		/**
		 * The call ended.
		 * @param attachment the attachment given to {@code observe}
		 * @param invocation the invocation given to {@code observe}
		 * @param outcome how the call ended
		 * @param decidedBy the middleware that decided the outcome, or {@code null} when
		 * the tool's own run did
		 * @param result what the call returned ({@code null} when it threw)
		 * @param error what the call threw, or {@code null} when it returned
		 */
		void callEnded(A attachment, ToolInvocation invocation, CallOutcome outcome, @Nullable String decidedBy,
				@Nullable Object result, @Nullable Throwable error);

	}

	/**
	 * Runs around each request a tool makes to its client, registered with
	 * {@link ToolCall#aroundClientRequests(ClientRequestExecution)}: a layer's
	 * observation of them.
	 */
	public interface ClientRequestExecution {

		/**
		 * Runs one request, once, on the thread that makes it.
		 * @param invocation the call's invocation
		 * @param kind the kind of request
		 * @param request sends the request and tells how it ended (its outcome says
		 * whether it failed); never throws
		 * @return what {@code request} returned
		 */
		ClientRequest run(ToolInvocation invocation, ClientRequest.Kind kind, Supplier<ClientRequest> request);

		/**
		 * The tool logged a message to its client (sent or not, as the client's level
		 * decides). Does nothing by default.
		 * @param invocation the call's invocation
		 * @param level the message's level
		 */
		default void logged(ToolInvocation invocation, ToolClient.Level level) {
		}

	}

	/**
	 * Runs around the tool's own code, registered with
	 * {@link ToolCall#aroundTool(ToolExecution)}.
	 */
	@FunctionalInterface
	public interface ToolExecution {

		/**
		 * Runs the tool, once.
		 * @param invocation the invocation the tool gets
		 * @param tool the tool's own handler
		 * @return what the tool returned
		 * @throws Exception what the tool threw, unchanged
		 */
		@Nullable Object run(ToolInvocation invocation, ToolHandler tool) throws Exception;

	}

}
