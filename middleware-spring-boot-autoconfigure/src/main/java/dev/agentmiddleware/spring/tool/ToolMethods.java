package dev.agentmiddleware.spring.tool;

import java.lang.reflect.Method;
import java.util.Map;

import dev.agentmiddleware.spring.AgentTool;
import org.jspecify.annotations.Nullable;

import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;

/**
 * Finds the {@link AgentTool @AgentTool} methods of a class, including those it inherits and those whose
 * annotation sits on an interface method.
 * <pre>{@code
 * AgentTool tool = ToolMethods.find(WeatherTools.class.getMethod("getWeather", String.class));
 * }</pre>
 */
public final class ToolMethods {

	private ToolMethods() {
	}

	static Map<Method, AgentTool> of(Class<?> type) {
		return MethodIntrospector.selectMethods(ClassUtils.getUserClass(type),
				(MethodIntrospector.MetadataLookup<AgentTool>) ToolMethods::find);
	}

	/**
	 * The {@code @AgentTool} of a method, declared directly or through a composed annotation, on the method or on
	 * a method it overrides or implements, with the composed annotation's {@code @AliasFor} overrides applied.
	 * @param method the method
	 * @return the merged annotation, or {@code null} when the method is no tool
	 */
	public static @Nullable AgentTool find(Method method) {
		MergedAnnotation<AgentTool> annotation = MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY)
			.get(AgentTool.class);
		return annotation.isPresent() ? annotation.synthesize() : null;
	}

}
