package dev.agentmiddleware.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.PerToolSettings.ToolSettings;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ToolNameReferences;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

/**
 * The configuration of one built-in middleware, shaped like resilience4j's
 * {@code Common*ConfigurationProperties}: an on/off switch, the built-in's order, a typed
 * {@code defaults} block and a {@code tools.<name>} map, and the one routine that turns
 * them into the core policy of a tool. Auto-configurations only wire beans.
 *
 * <p>
 * <b>The one rule</b> deciding whether a tool gets the built-in:
 * <ol>
 * <li>a tool listed under {@code tools} gets it, unless its entry says
 * {@code enabled: false};</li>
 * <li>any other tool gets it when {@code defaults.enabled} says so, and that never
 * includes a tool the built-in {@linkplain #refusal refuses} for safety;</li>
 * <li>when {@code defaults.enabled} is not set, the built-in's
 * {@linkplain #appliesByDefault own rule} decides (read-only tools for the cache,
 * idempotent or read-only tools for retries, ...).</li>
 * </ol>
 * Listing a tool the built-in refuses (caching or retrying a side-effecting tool) fails
 * startup unless its entry says {@code enabled: true} explicitly. A tool's entry falls
 * back to {@code defaults} field by field; tool names match in canonical form
 * ({@link PerToolSettings}). Invalid values fail startup as soon as the properties are
 * bound ({@link ValidatedProperties}), through Boot's failure analysis naming the
 * property ({@link InvalidToolConfigurationException}); unknown keys fail the same way,
 * for every section.
 *
 * <p>
 * A new built-in adopts it by extending it, and its auto-configuration hands the
 * validated settings to the middleware's {@link BuiltInMiddleware.Builder builder}
 * ({@link #applyTo}): <pre>{@code
 * &#64;ConfigurationProperties(ToolRetryProperties.PREFIX)
 * public class ToolRetryProperties extends ToolMiddlewareProperties<ToolRetryProperties.Settings, RetryPolicy> {
 *
 *     public ToolRetryProperties() {
 *         super(PREFIX, BuiltInOrder.RETRY, Settings.defaults());
 *     }
 *
 *     protected boolean appliesByDefault(ToolDescriptor tool) {
 *         return RetryMiddleware.isRetryable(tool);
 *     }
 *
 *     protected String refusal(ToolDescriptor tool) {
 *         return RetryMiddleware.isRetryable(tool) ? null : "is neither idempotent nor read-only: ...";
 *     }
 *
 *     protected RetryPolicy createPolicy(Settings settings) {
 *         return new RetryPolicy(required(settings.getMaxAttempts(), "maxAttempts"), ...);
 *     }
 * }
 *
 * // in the auto-configuration
 * return properties.applyTo(RetryMiddleware.builder()).metrics(metrics).build();
 * }</pre>
 *
 * @param <S> the settings type of {@code defaults} and of each tool
 * @param <P> the core policy type
 */
public abstract class ToolMiddlewareProperties<S extends ToolSettings<S>, P>
		implements ValidatedProperties, ToolNameReferences {

	private final String prefix;

	/**
	 * Whether the built-in is enabled at all.
	 */
	private boolean enabled = true;

	/**
	 * Position of the built-in in each tool's chain; a lower order runs further out.
	 */
	private int order;

	/**
	 * Settings of every tool not listed under 'tools', and the fallback of each setting a
	 * listed tool leaves out.
	 */
	private final S defaults;

	/**
	 * Settings per tool name; a listed tool gets the built-in unless its 'enabled' is
	 * false.
	 */
	private final Map<String, S> tools = new LinkedHashMap<>();

	/**
	 * Creates the properties.
	 * @param prefix the properties' prefix, such as {@code agent.middleware.cache}
	 * @param order the built-in's default order
	 * @param defaults the defaults block with its default values
	 */
	protected ToolMiddlewareProperties(String prefix, int order, S defaults) {
		this.prefix = prefix;
		this.order = order;
		this.defaults = defaults;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	public S getDefaults() {
		return this.defaults;
	}

	public Map<String, S> getTools() {
		return this.tools;
	}

	/**
	 * The built-in's rule for a tool that is not listed when {@code defaults.enabled} is
	 * not set.
	 * @param tool the tool
	 * @return whether the built-in applies to the tool
	 */
	protected abstract boolean appliesByDefault(ToolDescriptor tool);

	/**
	 * Why the built-in must not apply to a tool unless its entry says
	 * {@code enabled: true}.
	 * @param tool the tool
	 * @return the reason, completing "Tool 'x' ...", or {@code null} when the built-in
	 * may apply
	 */
	protected @Nullable String refusal(ToolDescriptor tool) {
		return null;
	}

	/**
	 * Builds the policy from merged settings.
	 * @param settings a tool's entry merged over the defaults, or the defaults
	 * @return the policy, or {@code null} when the settings ask for nothing (such as no
	 * timeout)
	 * @throws InvalidPolicyException naming the invalid setting (a policy component named
	 * like the settings field)
	 */
	protected abstract @Nullable P createPolicy(S settings);

	/**
	 * Checks the settings as soon as they are bound: the defaults and every tool's entry
	 * ({@link #validate()}), then the built-in's own settings
	 * ({@link #validateOwnSettings}).
	 * @param checks the checks of this prefix
	 */
	@Override
	public final void validate(PropertyChecks checks) {
		validate();
		validateOwnSettings(checks);
	}

	/**
	 * Checks the settings a built-in has besides {@code defaults} and {@code tools}; none
	 * by default.
	 * @param checks the checks of this prefix
	 */
	protected void validateOwnSettings(PropertyChecks checks) {
	}

	/**
	 * Checks the defaults and every tool's entry, so that an invalid value fails startup
	 * naming its property even for a tool whose pipeline is not built yet.
	 * @throws InvalidToolConfigurationException naming the property, the value and what
	 * was expected
	 */
	public void validate() {
		policy(this.prefix + ".defaults", this.defaults, null);
		this.tools.forEach((name, settings) -> policy(this.prefix + ".tools." + name,
				settings.withDefaults(this.defaults), settings));
	}

	/**
	 * The policy of a tool, by the one rule above.
	 * @param tool the tool
	 * @return the policy, or {@code null} when the built-in does not apply to the tool
	 * @throws InvalidToolConfigurationException when the tool is listed but refused, or a
	 * setting is invalid
	 */
	public @Nullable P policyFor(ToolDescriptor tool) {
		String key = PerToolSettings.keyOf(this.tools, tool.name());
		S own = (key != null) ? this.tools.get(key) : null;
		String refusal = refusal(tool);
		if (own == null) {
			Boolean byDefault = this.defaults.getEnabled();
			boolean applies = (byDefault != null) ? byDefault && refusal == null : appliesByDefault(tool);
			return applies ? policy(this.prefix + ".defaults", this.defaults, null) : null;
		}
		String property = this.prefix + ".tools." + key;
		Boolean explicit = own.getEnabled();
		if (Boolean.FALSE.equals(explicit)) {
			return null;
		}
		if (refusal != null && explicit == null) {
			throw new InvalidToolConfigurationException(property,
					"tool '" + tool.name() + "' " + refusal + ", so listing it does not switch this on",
					"Set '" + property + ".enabled' to true if that is really wanted, or remove the entry.");
		}
		return policy(property, own.withDefaults(this.defaults), own);
	}

	/**
	 * Whether a tool's entry says {@code enabled: true} explicitly, which lets a built-in
	 * apply to a tool it would otherwise refuse.
	 * @param tool the tool
	 * @return whether the tool is listed with {@code enabled: true}
	 */
	public boolean isExplicitlyEnabled(ToolDescriptor tool) {
		String key = PerToolSettings.keyOf(this.tools, tool.name());
		return key != null && Boolean.TRUE.equals(this.tools.get(key).getEnabled());
	}

	/**
	 * The property of the per-tool settings, such as
	 * {@code agent.middleware.cache.tools}: these properties are themselves the
	 * {@link ToolNameReferences} of their {@code tools} map, so that the registry checks
	 * every built-in's tool names at startup without a bean of its own.
	 * @return the property
	 */
	@Override
	public String property() {
		return this.prefix + ".tools";
	}

	/**
	 * The tool names under {@code tools}, for the registry's check of unknown names at
	 * startup.
	 * @return the names, as written in configuration
	 */
	@Override
	public Collection<String> toolNames() {
		return List.copyOf(this.tools.keySet());
	}

	/**
	 * Validates the settings ({@link #validate()}) and gives a built-in's builder what
	 * every built-in takes from its properties: the policy of each tool
	 * ({@link #policyFor}) and the order. The auto-configuration adds the built-in's own
	 * settings and builds it. <pre>{@code
	 * return properties.applyTo(TimeoutMiddleware.builder())
	 *     .maxThreads(properties.getMaxThreads())
	 *     .build();
	 * }</pre>
	 * @param builder the built-in's builder
	 * @param <B> the builder type
	 * @return the builder
	 * @throws InvalidToolConfigurationException naming the property, the value and what
	 * was expected
	 */
	public <B extends BuiltInMiddleware.Builder<P, B>> B applyTo(B builder) {
		validate();
		return builder.policies(this::policyFor).order(this.order);
	}

	private @Nullable P policy(String property, S settings, @Nullable S own) {
		try {
			return createPolicy(settings);
		}
		catch (InvalidPolicyException ex) {
			String field = settingsField(ex.setting(), settings);
			if (field == null) {
				throw invalid(property, ex);
			}
			// A field the tool's entry leaves out is the default's to correct.
			boolean ownField = own != null && new BeanWrapperImpl(own).getPropertyValue(field) != null;
			String fieldProperty = ((own == null || ownField) ? property : this.prefix + ".defaults") + "."
					+ DataObjectPropertyName.toDashedForm(field);
			throw new InvalidToolConfigurationException(fieldProperty,
					new BeanWrapperImpl(settings).getPropertyValue(field), String.valueOf(ex.getMessage()),
					"Update '" + fieldProperty + "' in your application's configuration.");
		}
		catch (IllegalArgumentException ex) {
			throw invalid(property, ex);
		}
	}

	private static InvalidToolConfigurationException invalid(String property, IllegalArgumentException ex) {
		return new InvalidToolConfigurationException(property, String.valueOf(ex.getMessage()),
				"Correct the settings under '" + property + "'.");
	}

	// The settings property a policy's invalid component is bound from: the one of the
	// same name, if any.
	private static @Nullable String settingsField(String setting, Object settings) {
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(settings.getClass())) {
			if (descriptor.getWriteMethod() != null && descriptor.getName().equals(setting)) {
				return setting;
			}
		}
		return null;
	}

}
