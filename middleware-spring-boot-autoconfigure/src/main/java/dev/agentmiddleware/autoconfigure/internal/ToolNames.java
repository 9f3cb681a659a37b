package dev.agentmiddleware.autoconfigure.internal;

import java.lang.reflect.Method;
import java.util.Locale;

import dev.agentmiddleware.spring.AgentTool;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;

/**
 * The names of {@link AgentTool} methods as tools: the name the annotation gives, or else the method name in
 * snake case, the convention of model providers and MCP servers.
 * <pre>{@code
 * ToolNames.defaultName("getWeather");  // "get_weather"
 * ToolNames.defaultName("readURL");     // "read_url"
 * ToolNames.defaultName("list_files");  // "list_files"
 * }</pre>
 */
public final class ToolNames {

	private ToolNames() {
	}

	/**
	 * The tool name of a method: {@link AgentTool#name()} when it is set, otherwise the
	 * {@linkplain #defaultName(String) default name}.
	 * @param method the tool method, annotated with {@link AgentTool} or not
	 * @return the tool name
	 */
	public static String of(Method method) {
		AgentTool tool = annotation(method);
		if (tool != null && !tool.name().isEmpty()) {
			return tool.name();
		}
		return defaultName(method.getName());
	}

	/**
	 * The {@code @AgentTool} of a method, declared directly or through a composed annotation, on the method or on
	 * a method it overrides or implements, with the composed annotation's {@code @AliasFor} overrides applied.
	 * @param method the method
	 * @return the merged annotation, or {@code null} when the method is no tool
	 */
	public static @Nullable AgentTool annotation(Method method) {
		MergedAnnotation<AgentTool> annotation = MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY)
			.get(AgentTool.class);
		return annotation.isPresent() ? annotation.synthesize() : null;
	}

	/**
	 * The default tool name of a method: its name in snake case. A word starts at each capital that follows a
	 * lower-case letter or digit, and at the last capital of an acronym that is followed by a lower-case letter
	 * ({@code readURLFast} becomes {@code read_url_fast}); existing underscores are kept, never doubled.
	 * @param methodName the Java method name
	 * @return the name in lower snake case
	 */
	public static String defaultName(String methodName) {
		StringBuilder name = new StringBuilder(methodName.length() + 4);
		for (int i = 0; i < methodName.length(); i++) {
			char current = methodName.charAt(i);
			if (Character.isUpperCase(current) && i > 0 && methodName.charAt(i - 1) != '_'
					&& startsWord(methodName, i)) {
				name.append('_');
			}
			name.append(current);
		}
		return name.toString().toLowerCase(Locale.ROOT);
	}

	/**
	 * The canonical form of a tool name used to match names written in configuration: lower case, letters and
	 * digits only, so {@code get_weather}, {@code get-weather} and {@code GETWEATHER} (from an environment variable)
	 * are the same tool.
	 * @param name a tool name as written anywhere
	 * @return the canonical form
	 */
	public static String canonical(String name) {
		StringBuilder canonical = new StringBuilder(name.length());
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (Character.isLetterOrDigit(c)) {
				canonical.append(Character.toLowerCase(c));
			}
		}
		return canonical.toString();
	}

	private static boolean startsWord(String methodName, int index) {
		char previous = methodName.charAt(index - 1);
		if (Character.isLowerCase(previous) || Character.isDigit(previous)) {
			return true;
		}
		return Character.isUpperCase(previous) && index + 1 < methodName.length()
				&& Character.isLowerCase(methodName.charAt(index + 1));
	}

}
