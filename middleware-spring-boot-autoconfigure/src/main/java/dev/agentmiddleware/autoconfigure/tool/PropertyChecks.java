package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.autoconfigure.internal.ToolNames.NameSuggestions;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.util.unit.DataSize;

/**
 * The limits a {@link ValidatedProperties} class states for its values. The first value
 * out of its limits throws an {@link InvalidToolConfigurationException} naming the
 * property (prefix and dashed field path, such as
 * {@code agent.middleware.loop-guard.max-iterations}, or {@code ...providers[1]} for a
 * list element), the value, what is allowed and, for a name, the closest allowed one.
 * <pre>{@code
 * checks.atLeast("maxIterations", this.maxIterations, 0)
 *     .positive("store.pollInterval", this.store.getPollInterval())
 *     .oneOf("providers", this.providers, List.of("callback", "queue", "mcp-elicitation"));
 * }</pre>
 */
public final class PropertyChecks {

	private final String prefix;

	/**
	 * Creates the checks of the properties bound at a prefix.
	 * @param prefix the prefix, such as {@code agent.middleware.loop-guard}
	 */
	public PropertyChecks(String prefix) {
		this.prefix = prefix;
	}

	/**
	 * Requires a number to be at least a minimum.
	 * @param field the field's Java property path
	 * @param value its value
	 * @param minimum the smallest allowed value
	 * @return these checks
	 */
	public PropertyChecks atLeast(String field, long value, long minimum) {
		if (value < minimum) {
			String allowed = (minimum == 0) ? "0 or more" : (minimum == 1) ? "1 or more" : minimum + " or more";
			fail(field, value, "must be " + allowed, allowed);
		}
		return this;
	}

	/**
	 * Requires a duration to be longer than zero.
	 * @param field the field's Java property path
	 * @param value its value
	 * @return these checks
	 */
	public PropertyChecks positive(String field, @Nullable Duration value) {
		if (value == null || value.isZero() || value.isNegative()) {
			fail(field, value, "must be longer than zero", "a duration longer than zero, such as 500ms, 30s or 5m");
		}
		return this;
	}

	/**
	 * Requires a duration not to be negative; zero is allowed.
	 * @param field the field's Java property path
	 * @param value its value
	 * @return these checks
	 */
	public PropertyChecks notNegative(String field, @Nullable Duration value) {
		if (value == null || value.isNegative()) {
			fail(field, value, "must not be negative", "0 (off) or a duration such as 30s or 5m");
		}
		return this;
	}

	/**
	 * Requires a size to be larger than zero.
	 * @param field the field's Java property path
	 * @param value its value
	 * @return these checks
	 */
	public PropertyChecks positive(String field, @Nullable DataSize value) {
		if (value == null || value.toBytes() <= 0) {
			fail(field, value, "must be larger than zero", "a size larger than zero, such as 512KB or 4MB");
		}
		return this;
	}

	/**
	 * Requires a text to have a character other than white space.
	 * @param field the field's Java property path
	 * @param value its value
	 * @return these checks
	 */
	public PropertyChecks notBlank(String field, @Nullable String value) {
		if (value == null || value.isBlank()) {
			fail(field, value, "must not be empty", "a text that is not empty");
		}
		return this;
	}

	/**
	 * Requires a text to start with a prefix.
	 * @param field the field's Java property path
	 * @param value its value
	 * @param start the required start, such as {@code /}
	 * @return these checks
	 */
	public PropertyChecks startsWith(String field, @Nullable String value, String start) {
		if (value == null || !value.startsWith(start)) {
			fail(field, value, "must start with '" + start + "'", "a value starting with '" + start + "'");
		}
		return this;
	}

	/**
	 * Requires a text to be an absolute {@code http:} or {@code https:} URL with a host
	 * and without user info, query or fragment, such as a public base URL.
	 * @param field the field's Java property path
	 * @param value its value
	 * @return these checks
	 */
	public PropertyChecks httpUrl(String field, @Nullable String value) {
		URI uri = null;
		try {
			uri = (value != null) ? new URI(value) : null;
		}
		catch (URISyntaxException ex) {
			// reported below
		}
		boolean http = uri != null
				&& ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()));
		if (!http || uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawQuery() != null
				|| uri.getRawFragment() != null) {
			fail(field, value,
					"must be an absolute http: or https: URL with a host, without user info, query or " + "fragment",
					"a base URL such as https://agents.example.com or https://example.com/app");
		}
		return this;
	}

	/**
	 * Requires every element of a list to be one of the allowed names; an element is
	 * reported at its index.
	 * @param field the field's Java property path
	 * @param values the list
	 * @param allowed the allowed names
	 * @return these checks
	 */
	public PropertyChecks oneOf(String field, List<String> values, Collection<String> allowed) {
		for (int i = 0; i < values.size(); i++) {
			String value = values.get(i);
			if (!allowed.contains(value)) {
				String property = property(field) + "[" + i + "]";
				throw new InvalidToolConfigurationException(property, value,
						"'" + value + "' is not one of " + String.join(", ", allowed),
						NameSuggestions.didYouMean(value, allowed) + "Allowed: " + String.join(", ", allowed) + ".");
			}
		}
		return this;
	}

	/**
	 * Requires every element of a list to have a character other than white space.
	 * @param field the field's Java property path
	 * @param values the list, or {@code null} when not set (nothing to check)
	 * @return these checks
	 */
	public PropertyChecks noBlankElement(String field, @Nullable List<String> values) {
		if (values == null) {
			return this;
		}
		for (int i = 0; i < values.size(); i++) {
			if (values.get(i) == null || values.get(i).isBlank()) {
				throw new InvalidToolConfigurationException(property(field) + "[" + i + "]", values.get(i),
						"must not be empty", "Remove the empty element, or give it a value.");
			}
		}
		return this;
	}

	/**
	 * The property a field path names, such as
	 * {@code agent.middleware.approval.store.poll-interval} for
	 * {@code store.pollInterval}.
	 * @param field the field's Java property path
	 * @return the property
	 */
	public String property(String field) {
		return this.prefix + "." + DataObjectPropertyName.toDashedForm(field);
	}

	private void fail(String field, @Nullable Object value, String reason, String allowed) {
		String property = property(field);
		throw new InvalidToolConfigurationException(property, value, reason,
				"Allowed: " + allowed + ". Update '" + property + "' in your application's configuration.");
	}

}
