package dev.agentmiddleware.chain;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;

/**
 * Checks, after a middleware layer, that its result is one the tool's callers accept, and names the middleware
 * when it is not. Only placed on tools whose result type restricts anything.
 */
record ResultContract(String middleware, ToolHandler delegate) implements ToolHandler {

	static boolean restricts(ToolDescriptor tool) {
		Class<?> type = tool.resultType();
		return type != Object.class && type != void.class && type != Void.class;
	}

	static String describeMismatch(ToolDescriptor tool, @Nullable Object value) {
		return "returned " + ((value != null) ? "a " + value.getClass().getName() : "null") + " but the tool returns "
				+ tool.resultType().getName();
	}

	@Override
	public @Nullable Object handle(ToolInvocation invocation) throws Exception {
		Object result = this.delegate.handle(invocation);
		ToolDescriptor tool = invocation.tool();
		if (!tool.acceptsResult(result)) {
			throw new ToolContractViolationException(tool.name(), this.middleware, describeMismatch(tool, result));
		}
		return result;
	}

}
