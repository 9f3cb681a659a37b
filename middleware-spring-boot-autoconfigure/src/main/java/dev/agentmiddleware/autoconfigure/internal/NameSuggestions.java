package dev.agentmiddleware.autoconfigure.internal;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;

import java.util.Collection;

import org.jspecify.annotations.Nullable;

/**
 * The "did you mean …?" of configuration errors: the known name closest to a misspelt one. Names compare in
 * canonical form ({@link ToolNames#canonical}), so {@code lookup-ordr} is close to {@code lookup_order}.
 * <pre>{@code
 * NameSuggestions.closest("cahce", List.of("cache", "retry", "timeout"));  // "cache"
 * NameSuggestions.closest("recovery", List.of("cache", "crash-recovery")); // "crash-recovery"
 * NameSuggestions.closest("weather", List.of("cache", "retry"));          // null
 * }</pre>
 */
public final class NameSuggestions {

	private NameSuggestions() {
	}

	/**
	 * The candidate closest to a name, if it is close enough to be a likely misspelling: at most a third of the
	 * name's letters (and at least one) added, removed, changed or swapped; failing that, the shortest candidate that
	 * contains the whole name (at least four letters of it), such as {@code crash-recovery} for {@code recovery}.
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
				if (known.contains(typed) && (best == null || known.length() < ToolNames.canonical(best).length())) {
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
	 * @return {@code "Did you mean 'x'? "}, or an empty string when no candidate is close
	 */
	public static String didYouMean(String name, Collection<String> candidates) {
		String closest = closest(name, candidates);
		return (closest != null) ? "Did you mean '" + closest + "'? " : "";
	}

	// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
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
