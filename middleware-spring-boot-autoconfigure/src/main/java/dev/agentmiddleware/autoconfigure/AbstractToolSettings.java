package dev.agentmiddleware.autoconfigure;

import dev.agentmiddleware.autoconfigure.PerToolSettings.ToolSettings;

import org.jspecify.annotations.Nullable;

/**
 * The base of a built-in's {@link ToolSettings}: the {@code enabled} switch that every built-in's {@code defaults}
 * block and {@code tools.<name>} entries have, bound and merged like the settings' own fields. A built-in's settings
 * class adds its own fields and says, in its javadoc and in the configuration metadata, what {@code enabled} means
 * for it when not set.
 * <pre>{@code
 * public static class Settings extends AbstractToolSettings<Settings> {
 *
 *     private @Nullable Duration ttl;
 *
 *     // getter and setter of ttl
 * }
 * }</pre>
 *
 * @param <S> the settings type
 * @see ToolMiddlewareProperties
 */
public abstract class AbstractToolSettings<S extends AbstractToolSettings<S>> implements ToolSettings<S> {

	/**
	 * Whether the built-in applies: under 'defaults', to every tool not listed; under 'tools', to that tool.
	 */
	private @Nullable Boolean enabled;

	@Override
	public final @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public final void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

}
