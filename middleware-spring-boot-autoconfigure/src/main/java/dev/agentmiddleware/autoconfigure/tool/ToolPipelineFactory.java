package dev.agentmiddleware.autoconfigure.tool;

import java.util.List;
import java.util.function.Supplier;

import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.observation.ObservationMiddleware;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import org.jspecify.annotations.Nullable;

import org.springframework.util.function.SingletonSupplier;

/**
 * Builds the pipeline of each tool from one ordered chain of middleware (resolved once,
 * on first use) and the observer tier.
 */
final class ToolPipelineFactory {

	private final Supplier<List<ToolMiddleware>> chain;

	private final Supplier<@Nullable ToolCallObservers> observers;

	/**
	 * Creates the factory.
	 * @param chain supplies the middleware, outermost first; called once
	 * @param observers supplies the observer tier, or {@code null} for none
	 */
	ToolPipelineFactory(Supplier<List<ToolMiddleware>> chain, Supplier<@Nullable ToolCallObservers> observers) {
		this.chain = SingletonSupplier.of(chain);
		this.observers = SingletonSupplier.ofNullable(observers);
	}

	/**
	 * The middleware every pipeline is built from, outermost first.
	 * @return the ordered chain
	 */
	public List<ToolMiddleware> chain() {
		return this.chain.get();
	}

	/**
	 * Builds the pipeline of one tool.
	 * @param tool the tool
	 * @return its pipeline, with only the middleware that apply to it
	 */
	public ToolPipeline create(ExecutableTool tool) {
		return ToolPipeline.builder(tool.descriptor(), tool.handler())
			.middleware(chain())
			.observers(this.observers.get())
			.build();
	}

	/**
	 * Builds the pipeline that answers calls of tools that do not exist: the chain's
	 * observation and logging layers and the observer tier around a handler that refuses
	 * the call. The policies (approval, rate limits, the cache, retries, the user's own
	 * middleware) are left out: a call that runs nothing has nothing for them to decide.
	 * @param tool the descriptor the calls are observed under
	 * @param refusal throws the call's failure
	 * @return the pipeline
	 */
	ToolPipeline createForUnknownTools(ToolDescriptor tool, ToolHandler refusal) {
		List<ToolMiddleware> observing = chain().stream()
			.filter((middleware) -> middleware instanceof ObservationMiddleware
					|| middleware instanceof LoggingMiddleware)
			.toList();
		return ToolPipeline.builder(tool, refusal).middleware(observing).observers(this.observers.get()).build();
	}

}
