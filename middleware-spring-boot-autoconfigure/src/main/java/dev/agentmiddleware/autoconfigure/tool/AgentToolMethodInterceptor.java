package dev.agentmiddleware.autoconfigure.tool;

import java.util.function.Supplier;

import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ToolProgress;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Runs a direct Java call of an {@code @AgentTool} method through the tool's pipeline, in
 * the session and for the principal the {@link ToolCallSessionResolver} finds.
 */
final class AgentToolMethodInterceptor implements MethodInterceptor {

	private final Supplier<AgentToolRegistry> registry;

	private final Supplier<ToolCallSessionResolver> sessionResolver;

	AgentToolMethodInterceptor(Supplier<AgentToolRegistry> registry,
			Supplier<ToolCallSessionResolver> sessionResolver) {
		this.registry = registry;
		this.sessionResolver = sessionResolver;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		if (ToolMethodInvoker.consumePassThrough(invocation.getMethod())) {
			return invocation.proceed();
		}
		RegisteredTool tool = this.registry.get().forMethod(invocation.getMethod());
		if (tool == null) {
			return invocation.proceed();
		}
		ToolPipeline pipeline = tool.pipeline();
		if (pipeline.isBare()) {
			// Nothing applies to this tool: the pipeline is the method itself, so go
			// straight to it.
			ToolProgress progress = tool.progressParameter().bindJava(invocation.getArguments(), tool.name());
			try {
				return invocation.proceed();
			}
			finally {
				ToolProgressParameter.finish(progress);
			}
		}
		return pipeline.call(tool.javaInvocation(invocation.getArguments(), this.sessionResolver.get().resolve()));
	}

}
