package dev.agentmiddleware.autoconfigure.internal;

import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Locale;

import dev.agentmiddleware.spring.AgentTool;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;

/**
 * The names of {@link AgentTool} methods as tools: the name the annotation gives, or else
 * the method name in snake case, the convention of model providers and MCP servers.
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
	 * The {@code @AgentTool} of a method, declared directly or through a composed
	 * annotation, on the method or on a method it overrides or implements, with the
	 * composed annotation's {@code @AliasFor} overrides applied.
	 * @param method the method
	 * @return the merged annotation, or {@code null} when the method is no tool
	 */
	public static @Nullable AgentTool annotation(Method method) {
		MergedAnnotation<AgentTool> annotation = MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY)
			.get(AgentTool.class);
		return annotation.isPresent() ? annotation.synthesize() : null;
	}

	/**
	 * The default tool name of a method: its name in snake case. A word starts at each
	 * capital that follows a lower-case letter or digit, and at the last capital of an
	 * acronym that is followed by a lower-case letter ({@code readURLFast} becomes
	 * {@code read_url_fast}); existing underscores are kept, never doubled.
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
	 * The canonical form of a tool name used to match names written in configuration:
	 * lower case, letters and digits only, so {@code get_weather}, {@code get-weather}
	 * and {@code GETWEATHER} (from an environment variable) are the same tool.
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

	/**
	 * The "did you mean …?" of configuration errors: the known name closest to a misspelt
	 * one. Names compare in canonical form ({@link ToolNames#canonical}), so
	 * {@code lookup-ordr} is close to {@code lookup_order}. <pre>{@code
	 * NameSuggestions.closest("cahce", List.of("cache", "retry", "timeout"));  // "cache"
	 * NameSuggestions.closest("recovery", List.of("cache", "crash-recovery")); // "crash-recovery"
	 * NameSuggestions.closest("weather", List.of("cache", "retry"));          // null
	 * }</pre>
	 */
	public static final class NameSuggestions {

		private NameSuggestions() {
		}

		/**
		 * The candidate closest to a name, if it is close enough to be a likely
		 * misspelling: at most a third of the name's letters (and at least one) added,
		 * removed, changed or swapped; failing that, the shortest candidate that contains
		 * the whole name (at least four letters of it), such as {@code crash-recovery}
		 * for {@code recovery}.
		 * @param name the name as written
		 * @param candidates the known names
		 * @return the closest candidate, or {@code null} when none is close
		 */
		public static @Nullable String closest(String name, Collection<String> candidates) {
			String typed = ToolNames.canonical(name);
			int allowed = Math.max(1, typed.length() / 3);
			String best = null;
			int bestDistance = Integer.MAX_VALUE;
			for (String candidate : candidates) {
				int distance = distance(typed, ToolNames.canonical(candidate));
				if (distance <= allowed && distance < bestDistance) {
					best = candidate;
					bestDistance = distance;
				}
			}
			if (best == null && typed.length() >= 4) {
				for (String candidate : candidates) {
					String known = ToolNames.canonical(candidate);
					if (known.contains(typed)
							&& (best == null || known.length() < ToolNames.canonical(best).length())) {
						best = candidate;
					}
				}
			}
			return best;
		}

		/**
		 * A sentence suggesting the closest candidate, for an error message.
		 * @param name the name as written
		 * @param candidates the known names
		 * @return {@code "Did you mean 'x'? "}, or an empty string when no candidate is
		 * close
		 */
		public static String didYouMean(String name, Collection<String> candidates) {
			String closest = closest(name, candidates);
			return (closest != null) ? "Did you mean '" + closest + "'? " : "";
		}

		// Optimal string alignment distance: insertions, deletions, substitutions and
		// swaps of neighbours.
		private static int distance(String a, String b) {
			int[][] d = new int[a.length() + 1][b.length() + 1];
			for (int i = 0; i <= a.length(); i++) {
				d[i][0] = i;
			}
			for (int j = 0; j <= b.length(); j++) {
				d[0][j] = j;
			}
			for (int i = 1; i <= a.length(); i++) {
				for (int j = 1; j <= b.length(); j++) {
					int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
					d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
					if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
						d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
					}
				}
			}
			return d[a.length()][b.length()];
		}

	}

}
