package dev.agentmiddleware.autoconfigure;

/**
 * The settings of one built-in middleware for one tool, as bound from {@code defaults} or {@code tools.<name>}.
 * Every field is {@code null} while not set, so that a tool's override falls back to the defaults field by field.
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
 */
public interface ToolSettings<S extends ToolSettings<S>> {

	/**
	 * These settings, with every field that is not set taken from {@code defaults}.
	 * @param defaults the defaults block
	 * @return the merged settings; neither input is changed
	 */
	S withDefaults(S defaults);

}
