package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.util.List;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.binding.ToolParameter;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor;

/**
 * What an {@link AgentTool @AgentTool} method declares: the tool's descriptor and the
 * parameters its JSON arguments bind to.
 *
 * @param descriptor the descriptor built from the annotation, the schema (declared or
 * generated) and the return type
 * @param parameters the method's parameters, in declaration order
 */
record ToolMethod(ToolDescriptor descriptor, List<ToolParameter> parameters) {

	static ToolMethod of(Method method, AgentTool annotation) {
		String name = ToolNames.of(method);
		ToolMethodSchema schema = annotation.inputSchema().isEmpty() ? ToolMethodSchema.of(method)
				: ToolMethodSchema.declared(method, name, annotation.inputSchema());
		String description = annotation.description().isEmpty() ? name.replace('_', ' ') : annotation.description();
		ToolDescriptor descriptor = ToolDescriptor.builder(name)
			.description(description)
			.inputSchema(schema.inputSchema())
			.safety(annotation.safety())
			.readOnly(annotation.readOnly())
			.idempotent(annotation.idempotent())
			.tags(annotation.tags())
			.returnDirect(annotation.returnDirect())
			.resultType(method.getReturnType())
			.title(annotation.title())
			.openWorld(annotation.openWorld())
			.authorities(annotation.authorities())
			.build();
		return new ToolMethod(descriptor, schema.parameters());
	}

}
