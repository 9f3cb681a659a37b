package dev.agentmiddleware.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.Map;
import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.ToolNameReferences;
import dev.agentmiddleware.chain.InvalidPolicyException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import dev.agentmiddleware.autoconfigure.PerToolSettings.ToolSettings;

/**
 * Resolves a built-in's settings for one tool from its {@code defaults} block and its
 * {@code tools} map: the lookup under {@link ToolMiddlewareProperties}, for a built-in
 * whose properties cannot extend it. Tool keys match in canonical form (lower case,
 * letters and digits only), so {@code get-weather}, {@code get_weather} and
 * {@code GETWEATHER} from an environment variable all configure the tool
 * {@code get_weather}. <pre>{@code
 * CacheSettings settings = PerToolSettings.resolve(properties.getDefaults(), properties.getTools(), "get_weather");
 * }</pre>
 */
public final class PerToolSettings {

	private PerToolSettings() {
	}

	/**
	 * The effective settings of a tool.
	 * @param defaults the defaults block
	 * @param tools the per-tool overrides by tool name as written in configuration
	 * @param toolName the tool
	 * @param <S> the settings type
	 * @return the tool's override merged over the defaults, or the defaults when the tool
	 * has none
	 */
	public static <S extends ToolSettings<S>> S resolve(S defaults, Map<String, S> tools, String toolName) {
		S override = find(tools, toolName);
		return (override != null) ? override.withDefaults(defaults) : defaults;
	}

	/**
	 * Whether the tool has an override at all.
	 * @param tools the per-tool overrides
	 * @param toolName the tool
	 * @return {@code true} if a key of {@code tools} names the tool
	 */
	public static boolean isConfigured(Map<String, ?> tools, String toolName) {
		return find(tools, toolName) != null;
	}

	/**
	 * The tool names a {@code tools} map refers to, for the registry's check of unknown
	 * names at startup.
	 * @param property the property of the map, such as
	 * {@code agent.middleware.cache.tools}
	 * @param tools the map
	 * @return the references
	 */
	public static ToolNameReferences references(String property, Map<String, ?> tools) {
		return ToolNameReferences.of(property, tools.keySet());
	}

	/**
	 * Builds a built-in's policy from settings, turning the policy's validation failure
	 * into a startup failure that names the property. <pre>{@code
	 * CachePolicy policy = PerToolSettings.policy("agent.middleware.cache.tools.read-file",
	 *         () -> new CachePolicy(settings.getTtl(), settings.getMaxSize(), settings.getScope()));
	 * }</pre>
	 * @param property the settings' property, such as
	 * {@code agent.middleware.cache.defaults}
	 * @param factory builds the policy; throws {@link IllegalArgumentException} for
	 * invalid values
	 * @param <P> the policy type
	 * @return the policy
	 * @throws InvalidToolConfigurationException naming the property and what is wrong
	 */
	public static <P> P policy(String property, Supplier<P> factory) {
		try {
			return factory.get();
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidToolConfigurationException(property, String.valueOf(ex.getMessage()),
					"Correct the settings under '" + property + "'.");
		}
	}

	/**
	 * A setting the policy cannot do without, inside {@link #policy}.
	 * @param value the setting's value
	 * @param key the setting's field name, such as {@code maxAttempts}
	 * @param <T> the value type
	 * @return the value
	 * @throws InvalidPolicyException naming the setting if the value is not set
	 */
	public static <T> T required(@Nullable T value, String key) {
		if (value == null) {
			throw new InvalidPolicyException(key, key + " must be set");
		}
		return value;
	}

	/**
	 * The key of {@code tools} that names the tool, as written in configuration.
	 * @param tools the per-tool settings
	 * @param toolName the tool
	 * @return the key, or {@code null} when the tool is not listed
	 */
	public static @Nullable String keyOf(Map<String, ?> tools, String toolName) {
		if (tools.containsKey(toolName)) {
			return toolName;
		}
		String canonical = ToolNames.canonical(toolName);
		for (String key : tools.keySet()) {
			if (ToolNames.canonical(key).equals(canonical)) {
				return key;
			}
		}
		return null;
	}

	private static <V> @Nullable V find(Map<String, V> tools, String toolName) {
		String key = keyOf(tools, toolName);
		return (key != null) ? tools.get(key) : null;
	}

	/**
	 * The settings of one built-in middleware for one tool, as bound from
	 * {@code defaults} or {@code tools.<name>}: a JavaBean with a public no-argument
	 * constructor whose every field is {@code null} while not set, so that a tool's entry
	 * falls back to the defaults field by field ({@link #withDefaults}). <pre>{@code
	 * public static class Settings implements ToolSettings<Settings> {
	 *
	 *     private @Nullable Boolean enabled;
	 *
	 *     private @Nullable Duration ttl;
	 *
	 *     // getters and setters
	 * }
	 * }</pre>
	 *
	 * @param <S> the settings type
	 * @see ToolMiddlewareProperties
	 */
	public interface ToolSettings<S extends ToolSettings<S>> {

		/**
		 * Whether the built-in applies: under {@code tools.<name>}, to that tool; under
		 * {@code defaults}, to every tool not listed. Not set means: listed tools get it,
		 * others follow the built-in's own rule.
		 * @return whether the built-in applies, or {@code null} when not set (always, for
		 * settings without the field)
		 */
		default @Nullable Boolean getEnabled() {
			return null;
		}

		/**
		 * These settings, with every property that is not set taken from
		 * {@code defaults}.
		 * @param defaults the defaults block
		 * @return the merged settings, a new instance; neither input is changed
		 */
		@SuppressWarnings("unchecked")
		default S withDefaults(S defaults) {
			S merged = (S) BeanUtils.instantiateClass(getClass());
			BeanWrapper own = new BeanWrapperImpl(this);
			BeanWrapper fallback = new BeanWrapperImpl(defaults);
			BeanWrapper target = new BeanWrapperImpl(merged);
			for (PropertyDescriptor property : own.getPropertyDescriptors()) {
				String name = property.getName();
				if (property.getReadMethod() != null && property.getWriteMethod() != null) {
					Object value = own.getPropertyValue(name);
					target.setPropertyValue(name, (value != null) ? value : fallback.getPropertyValue(name));
				}
			}
			return merged;
		}

	}

	/**
	 * The base of a built-in's {@link ToolSettings}: the {@code enabled} switch that
	 * every built-in's {@code defaults} block and {@code tools.<name>} entries have,
	 * bound and merged like the settings' own fields. A built-in's settings class adds
	 * its own fields and says, in its javadoc and in the configuration metadata, what
	 * {@code enabled} means for it when not set. <pre>{@code
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
	public abstract static class AbstractToolSettings<S extends AbstractToolSettings<S>> implements ToolSettings<S> {

		/**
		 * Whether the built-in applies: under 'defaults', to every tool not listed; under
		 * 'tools', to that tool.
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

}
