package dev.agentmiddleware.chain;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;
import dev.agentmiddleware.chain.ToolMiddleware.ToolCancelledException;

/**
 * One tool's composed chain: its middleware, outermost first, around the tool's own
 * handler. Built once per tool; holds no per-call state; safe to call from many threads
 * at once.
 *
 * <p>
 * Each middleware's {@link ToolMiddleware#wrap wrap} is called once, here; middleware
 * that do not apply to the tool are left out, so with no applicable middleware the
 * pipeline <em>is</em> the tool's handler. When observers are given, an observer tier
 * outside every middleware reports one record per call.
 *
 * <p>
 * <b>Per-call state:</b> the invocation passes through the layers unchanged unless a
 * layer rewrites it; what happens to one call (which layer decided it, whether the tool
 * ran) lives on its {@link ToolCall}, which the pipeline's outermost layer that reads
 * outcomes (the observer tier, when there is one) creates once per call, or the pipeline
 * itself for a call its caller can cancel. The call carries its cancellation: a layer
 * finds it with {@code ToolCall.current().cancellation()}. A pipeline in which nothing
 * reads outcomes creates none for a call that cannot be cancelled.
 *
 * <p>
 * <b>Ordering:</b> a lower order runs further out; the first middleware given is the
 * outermost. {@code chain(tool, a, b)} runs a-before, b-before, the tool, b-after,
 * a-after. <pre>{@code
 * ToolPipeline pipeline = ToolPipeline.chain(weatherTool, logging, cache);
 * pipeline.describe();   // "get_weather → [logging, cache, get_weather]"
 * Object forecast = pipeline.call(ToolInvocation.builder(weatherTool.descriptor())
 *         .argument("city", "Lisbon").build());
 * }</pre>
 */
public final class ToolPipeline {

	private final ToolDescriptor tool;

	private final ToolHandler head;

	private final List<String> layers;

	private final boolean bare;

	// Without an observer tier, call() itself binds the arguments and checks the chain's
	// result: two frames fewer.
	private final boolean bindsAndChecks;

	private final @Nullable ResultContract contract;

	private ToolPipeline(ToolDescriptor tool, ToolHandler head, List<String> layers, boolean bare,
			boolean bindsAndChecks, @Nullable ResultContract contract) {
		this.tool = tool;
		this.head = head;
		this.layers = layers;
		this.bare = bare;
		this.bindsAndChecks = bindsAndChecks;
		this.contract = contract;
	}

	/**
	 * Chains middleware around one tool; the first middleware given is the outermost.
	 * @param tool the tool
	 * @param middleware the middleware, outermost first
	 * @return the pipeline
	 */
	public static ToolPipeline chain(ExecutableTool tool, ToolMiddleware... middleware) {
		return builder(tool.descriptor(), tool.handler()).middleware(List.of(middleware)).build();
	}

	/**
	 * Chains the same middleware around every tool; each tool gets its own pipeline, and
	 * each middleware decides per tool whether it applies.
	 * @param tools the tools
	 * @param middleware the middleware, outermost first
	 * @return one pipeline per tool, in the order of {@code tools}
	 */
	public static List<ToolPipeline> chainAll(Collection<ExecutableTool> tools, ToolMiddleware... middleware) {
		List<ToolPipeline> pipelines = new ArrayList<>(tools.size());
		for (ExecutableTool tool : tools) {
			pipelines.add(chain(tool, middleware));
		}
		return Collections.unmodifiableList(pipelines);
	}

	/**
	 * Starts a pipeline for a tool.
	 * @param tool the tool's descriptor
	 * @param terminal the tool's own handler
	 * @return a builder
	 */
	public static Builder builder(ToolDescriptor tool, ToolHandler terminal) {
		return new Builder(tool, terminal);
	}

	/**
	 * Runs one call through the chain.
	 * @param invocation the call; must be of this pipeline's tool
	 * @return the result
	 * @throws Exception the tool's own exception, unchanged, or a
	 * {@link dev.agentmiddleware.tool.ToolMiddlewareException} from a middleware
	 */
	public @Nullable Object call(ToolInvocation invocation) throws Exception {
		checkTool(invocation);
		if (this.bare) {
			return this.head.handle(invocation.withBoundArguments());
		}
		return run(invocation, null);
	}

	// Runs a call through a chain that is not bare, in a call of its own
	private @Nullable Object run(ToolInvocation invocation, @Nullable CallCancellation cancellation) throws Exception {
		if (!this.bindsAndChecks) {
			return ToolCall.detached(invocation, this.head, cancellation);
		}
		// Bound before any call of this pipeline exists: every layer sees the bound
		// invocation.
		ToolInvocation bound = invocation.withBoundArguments();
		Object result = ToolCall.detached(bound, this.head, cancellation);
		ResultContract contract = this.contract;
		return (contract != null) ? contract.check(bound, result) : result;
	}

	/**
	 * Runs one call through the chain, cancellable with {@code cancellation} from any
	 * thread ({@link CallCancellation#cancel(String)}): an approval wait ends with its
	 * request withdrawn, a timed attempt stops being waited for, a retry makes no further
	 * attempt, the tool does not start (or, tagged
	 * {@value CallCancellation#INTERRUPTIBLE_TAG}, is interrupted), and the call ends
	 * with a {@link ToolCancelledException}, observed and counted with the outcome
	 * {@code cancelled}. <pre>{@code
	 * CallCancellation cancellation = new CallCancellation();
	 * onClientGone(() -> cancellation.cancel("the client went away"));
	 * Object result = pipeline.call(invocation, cancellation);
	 * }</pre>
	 * @param invocation the call; must be of this pipeline's tool
	 * @param cancellation cancels the call; one per call
	 * @return the result
	 * @throws ToolCancelledException if the call was cancelled before it returned
	 * @throws Exception as {@link #call(ToolInvocation)}
	 */
	public @Nullable Object call(ToolInvocation invocation, CallCancellation cancellation) throws Exception {
		Objects.requireNonNull(cancellation, "cancellation");
		checkTool(invocation);
		if (this.bare) {
			// The tool's code runs in a call that carries the cancellation, guarded by it
			return ToolCall.detached(invocation.withBoundArguments(),
					(bound) -> cancellation.guard(this.tool, bound, null, this.head), cancellation);
		}
		return run(invocation, cancellation);
	}

	/**
	 * Runs one call through the chain on {@code executor}; cancelling the returned future
	 * cancels the call as {@link #call(ToolInvocation, CallCancellation)} describes. An
	 * interrupt of the executor's thread is not needed and not relied on:
	 * {@code cancel(true)} and {@code cancel(false)} do the same. Only this future
	 * cancels the call: stages derived from it ({@code thenApply}) complete exceptionally
	 * when it is cancelled, but cancelling them does not reach the call. <pre>{@code
	 * CompletableFuture<Object> deletion = pipeline.callAsync(invocation, executor);
	 * ...
	 * deletion.cancel(true);   // the pending approval is withdrawn, audited as cancelled; the file stays
	 * }</pre>
	 * @param invocation the call; must be of this pipeline's tool
	 * @param executor runs the call
	 * @return the call's result, completed exceptionally with what
	 * {@link #call(ToolInvocation)} throws
	 * @throws java.util.concurrent.RejectedExecutionException if the executor refuses the
	 * call
	 */
	public CompletableFuture<@Nullable Object> callAsync(ToolInvocation invocation, Executor executor) {
		checkTool(invocation);
		CallCancellation cancellation = new CallCancellation();
		CompletableFuture<@Nullable Object> future = cancellation.future();
		executor.execute(() -> {
			if (future.isDone()) {
				return; // cancelled before it started: nothing ran
			}
			try {
				future.complete(call(invocation, cancellation));
			}
			catch (Throwable ex) {
				future.completeExceptionally(ex);
			}
		});
		return future;
	}

	private void checkTool(ToolInvocation invocation) {
		if (invocation.tool() != this.tool && !invocation.tool().equals(this.tool)) {
			throw new IllegalArgumentException("Invocation of tool '" + invocation.toolName()
					+ "' passed to the pipeline of tool '" + this.tool.name() + "'");
		}
	}

	/**
	 * The tool this pipeline runs.
	 * @return the descriptor
	 */
	public ToolDescriptor tool() {
		return this.tool;
	}

	/**
	 * The names of the layers that apply to this tool, outermost first, ending with the
	 * tool's name.
	 * @return the layer names
	 */
	public List<String> layers() {
		return this.layers;
	}

	/**
	 * Whether no middleware applies to the tool and no observer watches it: the pipeline
	 * is then the tool's own handler, and a caller that can reach the tool's code more
	 * directly (such as a proxy proceeding to the method) may skip the pipeline without
	 * changing behaviour.
	 * @return {@code true} when the pipeline adds nothing to the tool
	 */
	public boolean isBare() {
		return this.bare;
	}

	/**
	 * The chain in one line, such as
	 * {@code get_weather → [observation, logging, cache, get_weather]}.
	 * @return the description
	 */
	public String describe() {
		return this.tool.name() + " → " + this.layers;
	}

	@Override
	public String toString() {
		return describe();
	}

	/**
	 * Builds a {@link ToolPipeline}.
	 */
	public static final class Builder {

		private final ToolDescriptor tool;

		private final ToolHandler terminal;

		private final List<ToolMiddleware> middleware = new ArrayList<>();

		private @Nullable ToolCallObservers observers;

		private Builder(ToolDescriptor tool, ToolHandler terminal) {
			this.tool = Objects.requireNonNull(tool, "tool");
			this.terminal = Objects.requireNonNull(terminal, "terminal");
		}

		/**
		 * Appends middleware; each call adds further in.
		 * @param middleware the middleware, outermost first
		 * @return this builder
		 */
		public Builder middleware(List<? extends ToolMiddleware> middleware) {
			for (ToolMiddleware each : middleware) {
				this.middleware.add(Objects.requireNonNull(each, "middleware"));
			}
			return this;
		}

		/**
		 * Appends one middleware, inside those added before.
		 * @param middleware the middleware
		 * @return this builder
		 */
		public Builder middleware(ToolMiddleware middleware) {
			return middleware(List.of(middleware));
		}

		/**
		 * Appends one interceptor, inside those added before.
		 * @param interceptor the interceptor
		 * @return this builder
		 */
		public Builder interceptor(ToolInterceptor interceptor) {
			return middleware(interceptor.asMiddleware());
		}

		/**
		 * Sets the observers that get one record per call. Without observers (or with
		 * empty ones) the pipeline has no observer tier at all.
		 * @param observers the observers, or {@code null}
		 * @return this builder
		 */
		public Builder observers(@Nullable ToolCallObservers observers) {
			this.observers = observers;
			return this;
		}

		/**
		 * Composes the pipeline, calling each middleware's {@code wrap} once, innermost
		 * first.
		 * @return the pipeline
		 * @throws IllegalStateException if a middleware's {@code wrap} returns
		 * {@code null}
		 */
		public ToolPipeline build() {
			ToolCallObservers observers = (this.observers != null && !this.observers.isEmpty()) ? this.observers : null;
			// Layers and observers learn whether the tool itself ran from the running
			// ToolCall; with neither, the
			// pipeline is the bare terminal handler.
			// A cancelled call does not start the tool (nor count as having run it): the
			// same wrapper guards it
			ToolHandler handler = ToolCall.markingExecution(this.tool, this.terminal);
			List<String> layers = new ArrayList<>();
			// The layers and the binding step, outermost first, for the diagnosis of a
			// broken result contract.
			List<ToolMiddleware> steps = new ArrayList<>();
			layers.add(this.tool.name());
			boolean binds = false;
			for (int i = this.middleware.size() - 1; i >= 0; i--) {
				ToolMiddleware middleware = this.middleware.get(i);
				if (middleware instanceof ArgumentBindingMiddleware) {
					// An intrinsic step rather than a layer: not listed, and a tool with
					// nothing else stays bare
					handler = ArgumentBindingMiddleware.binding(handler);
					steps.add(0, middleware);
					binds = true;
					continue;
				}
				ToolHandler wrapped = middleware.wrap(this.tool, handler);
				if (wrapped == null) {
					throw new IllegalStateException("Middleware '" + middleware.name() + "' ("
							+ middleware.getClass().getName() + ") returned null from wrap for tool '"
							+ this.tool.name() + "'; return next to leave the tool alone");
				}
				if (wrapped != handler) {
					layers.add(0, middleware.name());
					steps.add(0, middleware);
					handler = wrapped;
				}
			}
			boolean bare = layers.size() == 1 && observers == null;
			boolean bindsAndChecks = false;
			if (bare) {
				// The pipeline is the tool's handler itself; call() binds an unbound call
				// first
				handler = this.terminal;
			}
			else if (!binds) {
				steps.add(0, ArgumentBindingMiddleware.INSTANCE);
				if (observers != null) {
					handler = ArgumentBindingMiddleware.binding(handler);
				}
				else {
					bindsAndChecks = true;
				}
			}
			// One check of the result for the whole chain instead of one per layer; with
			// observers, inside their tier
			// so that they see a broken contract as the failure it is.
			ResultContract contract = (layers.size() > 1 && ResultContract.restricts(this.tool))
					? new ResultContract(this.tool, steps, handler) : null;
			if (contract != null && !bindsAndChecks) {
				handler = contract;
			}
			if (observers != null) {
				handler = new ObservedHandler(handler, observers);
			}
			return new ToolPipeline(this.tool, handler, List.copyOf(layers), bare, bindsAndChecks,
					bindsAndChecks ? contract : null);
		}

	}

}
