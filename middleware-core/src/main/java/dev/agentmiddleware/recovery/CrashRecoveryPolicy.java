package dev.agentmiddleware.recovery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolMiddlewareException;
import dev.agentmiddleware.tool.ToolSessionCrashedException;
import dev.agentmiddleware.tool.TransientToolException;

/**
 * Which failures of a tool count as a crash of its session. A
 * {@link ToolSessionCrashedException} always does; so does an instance of one of the
 * {@code crashTypes}, such as the exception a browser driver throws when its browser
 * died. With {@code anyRuntimeExceptionIsCrash} (the {@linkplain #DEFAULT default}),
 * every {@link RuntimeException} of the tool counts too (Java's equivalent of a panic),
 * except the chain's own {@link ToolMiddlewareException}s (denials, rate limits, invalid
 * arguments) and a {@link TransientToolException} (a signal asking for a retry, not a
 * reset), which never do. Checked exceptions (an {@code IOException} reading a page) are
 * ordinary failures unless listed in {@code crashTypes}. <pre>{@code
 * CrashRecoveryPolicy policy = new CrashRecoveryPolicy(List.of(TargetClosedError.class), false);
 * }</pre>
 *
 * @param crashTypes further exception types that mean the session crashed (subclasses
 * included)
 * @param anyRuntimeExceptionIsCrash whether any runtime exception of the tool counts as a
 * crash
 */
public record CrashRecoveryPolicy(List<Class<? extends Exception>> crashTypes, boolean anyRuntimeExceptionIsCrash) {

	/**
	 * A {@link ToolSessionCrashedException} or any other unchecked exception of the tool
	 * is a crash.
	 */
	public static final CrashRecoveryPolicy DEFAULT = new CrashRecoveryPolicy(List.of(), true);

	/**
	 * Validates the policy.
	 */
	public CrashRecoveryPolicy {
		crashTypes = List.copyOf(Objects.requireNonNull(crashTypes, "crashTypes"));
	}

	/**
	 * Whether a failure of the tool means its session crashed.
	 * @param failure what the tool threw
	 * @return {@code true} if the session should be reset and the call retried
	 */
	public boolean isCrash(Throwable failure) {
		if (failure instanceof ToolSessionCrashedException) {
			return true;
		}
		for (Class<? extends Exception> type : this.crashTypes) {
			if (type.isInstance(failure)) {
				return true;
			}
		}
		return this.anyRuntimeExceptionIsCrash && failure instanceof RuntimeException
				&& !(failure instanceof ToolMiddlewareException) && !(failure instanceof TransientToolException);
	}

	/**
	 * Picks the tools that drive a session: those carrying one of the tags (compared
	 * ignoring case) or whose name matches one of the name patterns. A pattern is a glob
	 * ({@code browser_*}, {@code page_?}, matched ignoring case) unless it starts with
	 * {@code regex:}, in which case the rest is a regular expression that must match the
	 * whole name. <pre>{@code
	 * SessionToolMatcher matcher = SessionToolMatcher.of(List.of("browser"), List.of("page_*", "regex:shell_(run|exec)"));
	 * matcher.matches(openPageTool);   // true for a tool tagged "browser" or named "page_open"
	 * }</pre>
	 *
	 * @param tags the tags that mark a session tool
	 * @param namePatterns the name patterns, as given
	 */
	public record SessionToolMatcher(Set<String> tags, List<String> namePatterns) {

		/** The prefix of a pattern that is a regular expression rather than a glob. */
		public static final String REGEX_PREFIX = "regex:";

		/** Tools tagged {@code browser}. */
		public static final SessionToolMatcher BROWSER = of(List.of("browser"), List.of());

		/**
		 * Validates the matcher.
		 * @throws IllegalArgumentException if a pattern is not a valid regular expression
		 */
		public SessionToolMatcher {
			tags = Set.copyOf(Objects.requireNonNull(tags, "tags"));
			namePatterns = List.copyOf(Objects.requireNonNull(namePatterns, "namePatterns"));
			compile(namePatterns);
		}

		/**
		 * Creates a matcher.
		 * @param tags the tags that mark a session tool
		 * @param namePatterns globs, or regular expressions prefixed with
		 * {@value #REGEX_PREFIX}
		 * @return the matcher
		 */
		public static SessionToolMatcher of(Collection<String> tags, Collection<String> namePatterns) {
			return new SessionToolMatcher(Set.copyOf(tags), List.copyOf(namePatterns));
		}

		/**
		 * Whether the tool drives a session.
		 * @param tool the tool
		 * @return {@code true} if it carries one of the tags or its name matches one of
		 * the patterns
		 */
		public boolean matches(ToolDescriptor tool) {
			for (String tag : this.tags) {
				if (tool.hasTag(tag)) {
					return true;
				}
			}
			for (Pattern pattern : compile(this.namePatterns)) {
				if (pattern.matcher(tool.name()).matches()) {
					return true;
				}
			}
			return false;
		}

		private static List<Pattern> compile(List<String> patterns) {
			List<Pattern> compiled = new ArrayList<>(patterns.size());
			for (String pattern : patterns) {
				try {
					compiled.add(
							pattern.startsWith(REGEX_PREFIX) ? Pattern.compile(pattern.substring(REGEX_PREFIX.length()))
									: Pattern.compile(glob(pattern), Pattern.CASE_INSENSITIVE));
				}
				catch (PatternSyntaxException ex) {
					throw new IllegalArgumentException("Tool name pattern '" + pattern + "' is not a valid regular "
							+ "expression: " + ex.getDescription(), ex);
				}
			}
			return compiled;
		}

		private static String glob(String glob) {
			StringBuilder regex = new StringBuilder(glob.length() + 8);
			StringBuilder literal = new StringBuilder();
			for (char c : glob.toLowerCase(Locale.ROOT).toCharArray()) {
				if (c == '*' || c == '?') {
					if (!literal.isEmpty()) {
						regex.append(Pattern.quote(literal.toString()));
						literal.setLength(0);
					}
					regex.append((c == '*') ? ".*" : ".");
				}
				else {
					literal.append(c);
				}
			}
			if (!literal.isEmpty()) {
				regex.append(Pattern.quote(literal.toString()));
			}
			return regex.toString();
		}

	}

}
