package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.spring.AgentTool;

import org.springframework.core.MethodIntrospector;
import org.springframework.util.ClassUtils;

/**
 * Finds the {@link AgentTool @AgentTool} methods of a class, including those it inherits
 * and those whose annotation sits on an interface method.
 */
final class ToolMethods {

	private ToolMethods() {
	}

	static Map<Method, AgentTool> of(Class<?> type) {
		return MethodIntrospector.selectMethods(ClassUtils.getUserClass(type),
				(MethodIntrospector.MetadataLookup<AgentTool>) ToolNames::annotation);
	}

}
