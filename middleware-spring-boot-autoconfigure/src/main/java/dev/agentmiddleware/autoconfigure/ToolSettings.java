package dev.agentmiddleware.autoconfigure;

import java.beans.PropertyDescriptor;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;

/**
 * The settings of one built-in middleware for one tool, as bound from {@code defaults} or {@code tools.<name>}: a
 * JavaBean with a public no-argument constructor whose every field is {@code null} while not set, so that a tool's
 * entry falls back to the defaults field by field ({@link #withDefaults}).
 * <pre>{@code
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
	 * Whether the built-in applies: under {@code tools.<name>}, to that tool; under {@code defaults}, to every tool
	 * not listed. Not set means: listed tools get it, others follow the built-in's own rule.
	 * @return whether the built-in applies, or {@code null} when not set (always, for settings without the field)
	 */
	default @Nullable Boolean getEnabled() {
		return null;
	}

	/**
	 * These settings, with every property that is not set taken from {@code defaults}.
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
