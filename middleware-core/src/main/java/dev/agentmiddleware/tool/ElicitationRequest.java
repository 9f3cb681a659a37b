package dev.agentmiddleware.tool;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What a tool asks its client's user ({@link ToolClient#elicit}): a message and the form
 * to fill in, as the JSON schema of a flat object whose properties are strings, numbers,
 * integers, booleans or enums, each with an optional default (MCP's form mode, with
 * SEP-1034 defaults and SEP-1330 enums). The builder writes the common properties; any
 * other property schema is given as a map: <pre>{@code
 * ElicitationRequest request = ElicitationRequest.builder("Where should the report go?")
 *     .text("email", "Email address", null)
 *     .choice("format", "Format", List.of("pdf", "csv"), "pdf")
 *     .bool("zip", "Zip the files", false)
 *     .property("pages", Map.of("type", "array", "items", Map.of("type", "string", "enum", List.of("summary", "details"))))
 *     .required("email")
 *     .build();
 * }</pre>
 *
 * @param message the question, for the user
 * @param requestedSchema the JSON schema of the answer's content: {@code type},
 * {@code properties}, {@code required}; unmodifiable
 * @param id the key of the request among the requests of its call, or {@code null} for
 * one the client assigns (the n-th request of its kind in the call). Used where a call
 * asks its client through MCP {@code input_required} (revision {@code 2026-07-28}): the
 * key of the request in {@code inputRequests}, and of its answer in the retry's
 * {@code inputResponses}; a tool sets it when its client expects a name, and keeps it
 * stable from one run of the call to the next. Ignored on {@code 2025-11-25}.
 */
public record ElicitationRequest(String message, Map<String, Object> requestedSchema, @Nullable String id) {

	/**
	 * Creates a request.
	 * @param message the question, for the user
	 * @param requestedSchema the JSON schema of the answer's content
	 * @param id the request's key among the call's requests, or {@code null}
	 * @throws IllegalArgumentException if {@code id} is blank
	 */
	public ElicitationRequest {
		Objects.requireNonNull(message, "message");
		requestedSchema = Collections.unmodifiableMap(new LinkedHashMap<>(requestedSchema));
		if (id != null && id.isBlank()) {
			throw new IllegalArgumentException("The id of an elicitation request must not be blank");
		}
	}

	/**
	 * Creates a request without an id.
	 * @param message the question, for the user
	 * @param requestedSchema the JSON schema of the answer's content
	 */
	public ElicitationRequest(String message, Map<String, Object> requestedSchema) {
		this(message, requestedSchema, null);
	}

	/**
	 * This request with an id.
	 * @param id the request's key among the call's requests, or {@code null}
	 * @return a request with the same question and form
	 */
	public ElicitationRequest withId(@Nullable String id) {
		return new ElicitationRequest(this.message, this.requestedSchema, id);
	}

	/**
	 * Starts a request with a form without properties.
	 * @param message the question, for the user
	 * @return the builder
	 */
	public static Builder builder(String message) {
		return new Builder(message);
	}

	@Override
	public String toString() {
		return "ElicitationRequest[" + ((this.id != null) ? "id=" + this.id + ", " : "") + "properties="
				+ properties().keySet() + "]";
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> properties() {
		Object properties = this.requestedSchema.get("properties");
		return (properties instanceof Map<?, ?> map) ? (Map<String, Object>) map : Map.of();
	}

	/**
	 * Builds an {@link ElicitationRequest}; properties keep the order they are added in.
	 */
	public static final class Builder {

		private final String message;

		private final Map<String, Object> properties = new LinkedHashMap<>();

		private final Set<String> required = new LinkedHashSet<>();

		private @Nullable String id;

		private Builder(String message) {
			this.message = Objects.requireNonNull(message, "message");
		}

		/**
		 * Adds a string property.
		 * @param name the property's name
		 * @param title its label, or {@code null}
		 * @param defaultValue the value the form starts with, or {@code null}
		 * @return this builder
		 */
		public Builder text(String name, @Nullable String title, @Nullable String defaultValue) {
			return property(name, primitive("string", title, defaultValue));
		}

		/**
		 * Adds an integer property.
		 * @param name the property's name
		 * @param title its label, or {@code null}
		 * @param defaultValue the value the form starts with, or {@code null}
		 * @return this builder
		 */
		public Builder integer(String name, @Nullable String title, @Nullable Long defaultValue) {
			return property(name, primitive("integer", title, defaultValue));
		}

		/**
		 * Adds an integer property.
		 * @param name the property's name
		 * @param title its label, or {@code null}
		 * @param defaultValue the value the form starts with
		 * @return this builder
		 */
		public Builder integer(String name, @Nullable String title, int defaultValue) {
			return integer(name, title, Long.valueOf(defaultValue));
		}

		/**
		 * Adds a number property.
		 * @param name the property's name
		 * @param title its label, or {@code null}
		 * @param defaultValue the value the form starts with, or {@code null}
		 * @return this builder
		 */
		public Builder number(String name, @Nullable String title, @Nullable Double defaultValue) {
			return property(name, primitive("number", title, defaultValue));
		}

		/**
		 * Adds a boolean property.
		 * @param name the property's name
		 * @param title its label, or {@code null}
		 * @param defaultValue the value the form starts with, or {@code null}
		 * @return this builder
		 */
		public Builder bool(String name, @Nullable String title, @Nullable Boolean defaultValue) {
			return property(name, primitive("boolean", title, defaultValue));
		}

		/**
		 * Adds a single choice among strings, each its own label.
		 * @param name the property's name
		 * @param title its label, or {@code null}
		 * @param values the choices; not empty
		 * @param defaultValue the choice the form starts with, one of {@code values}, or
		 * {@code null}
		 * @return this builder
		 * @throws IllegalArgumentException if {@code values} is empty or does not hold
		 * {@code defaultValue}
		 */
		public Builder choice(String name, @Nullable String title, List<String> values, @Nullable String defaultValue) {
			if (values.isEmpty()) {
				throw new IllegalArgumentException("Property '" + name + "' offers no choice");
			}
			if (defaultValue != null && !values.contains(defaultValue)) {
				throw new IllegalArgumentException(
						"Default '" + defaultValue + "' of property '" + name + "' is not one of " + values);
			}
			Map<String, Object> schema = primitive("string", title, defaultValue);
			schema.put("enum", List.copyOf(values));
			return property(name, schema);
		}

		/**
		 * Adds a property with a schema of its own, such as a titled enum ({@code oneOf}
		 * of {@code const} and {@code title}) or a multiple choice ({@code type: array}
		 * with {@code items}).
		 * @param name the property's name
		 * @param schema its JSON schema
		 * @return this builder
		 */
		public Builder property(String name, Map<String, ?> schema) {
			Objects.requireNonNull(name, "name");
			this.properties.put(name, Collections.unmodifiableMap(new LinkedHashMap<>(schema)));
			return this;
		}

		/**
		 * Marks properties the user must fill in.
		 * @param names the properties' names, added before
		 * @return this builder
		 * @throws IllegalArgumentException if a name is not a property
		 */
		public Builder required(String... names) {
			for (String name : names) {
				if (!this.properties.containsKey(name)) {
					throw new IllegalArgumentException("Property '" + name + "' is required but was not added");
				}
				this.required.add(name);
			}
			return this;
		}

		/**
		 * Sets the request's key among the requests of its call (see
		 * {@link ElicitationRequest#id()}).
		 * @param id the key, or {@code null} for one the client assigns
		 * @return this builder
		 */
		public Builder id(@Nullable String id) {
			this.id = id;
			return this;
		}

		/**
		 * Builds the request.
		 * @return the request
		 */
		public ElicitationRequest build() {
			Map<String, Object> schema = new LinkedHashMap<>();
			schema.put("type", "object");
			schema.put("properties", Collections.unmodifiableMap(new LinkedHashMap<>(this.properties)));
			if (!this.required.isEmpty()) {
				schema.put("required", new ArrayList<>(this.required));
			}
			return new ElicitationRequest(this.message, schema, this.id);
		}

		private static Map<String, Object> primitive(String type, @Nullable String title,
				@Nullable Object defaultValue) {
			Map<String, Object> schema = new LinkedHashMap<>();
			schema.put("type", type);
			if (title != null) {
				schema.put("title", title);
			}
			if (defaultValue != null) {
				schema.put("default", defaultValue);
			}
			return schema;
		}

	}

}
