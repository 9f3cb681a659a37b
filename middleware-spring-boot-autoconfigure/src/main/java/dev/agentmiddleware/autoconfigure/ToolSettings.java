package dev.agentmiddleware.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The settings of one built-in middleware for one tool, as bound from {@code defaults} or {@code tools.<name>}.
 * Every field is {@code null} while not set, so that a tool's entry falls back to the defaults field by field.
 * <pre>{@code
 * public CacheSettings withDefaults(CacheSettings defaults) {
 *     CacheSettings merged = new CacheSettings();
 *     merged.setTtl((this.ttl != null) ? this.ttl : defaults.getTtl());
 *     ...
 *     return merged;
 * }
 * }</pre>
 *
 * @param <S> the settings type
 * @see ToolMiddlewareProperties
 */
public interface ToolSettings<S extends ToolSettings<S>> {

	/**
	 * Whether the built-in applies: under {@code tools.<name>}, to that tool; under {@code defaults}, to every tool
	 * not listed. Not set means: listed tools get it, others follow the built-in's own rule.
	 * @return whether the built-in applies, or {@code null} when not set (always, for settings without the field)
	 */
	default @Nullable Boolean getEnabled() {
		return null;
	}

	/**
	 * These settings, with every field that is not set taken from {@code defaults}.
	 * @param defaults the defaults block
	 * @return the merged settings; neither input is changed
	 */
	S withDefaults(S defaults);

}
