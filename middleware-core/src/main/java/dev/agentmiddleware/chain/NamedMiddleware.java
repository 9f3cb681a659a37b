package dev.agentmiddleware.chain;

import java.util.Objects;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;

record NamedMiddleware(String name, ToolMiddleware delegate) implements ToolMiddleware {

	NamedMiddleware {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(delegate, "delegate");
	}

	@Override
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		return this.delegate.wrap(tool, next);
	}

}
