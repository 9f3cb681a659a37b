package dev.agentmiddleware.tool;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * What a tool is: its name, what it does, the JSON schema of its arguments and how
 * careful the chain must be with it. Built once per tool; immutable.
 *
 * <p>
 * Middleware decide whether they apply to a tool from its descriptor, once, when the
 * tool's pipeline is built. A tool that does not declare a safety level counts as
 * {@link SafetyLevel#DANGEROUS}. <pre>{@code
 * ToolDescriptor weather = ToolDescriptor.builder("get_weather")
 *     .description("Current weather for a city")
 *     .inputSchema("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}")
 *     .safety(SafetyLevel.SAFE)
 *     .readOnly(true)
 *     .build();
 * }</pre>
 *
 * @param name the unique tool name: 1 to 64 letters, digits, {@code _} or {@code -}
 * @param description what the tool does, for the model
 * @param inputSchema the JSON schema of the arguments object
 * @param safety how much harm the tool can do
 * @param readOnly whether the tool only reads (enables caching and retries)
 * @param idempotent whether calling the tool twice with the same arguments is safe
 * (enables retries)
 * @param tags free-form labels that middleware match on, such as {@code browser}
 * @param returnDirect whether the result goes straight to the user instead of back to the
 * model
 * @param resultType the Java type the tool returns ({@code Object} when unknown,
 * {@code void} for none); a middleware that answers with a value of another type breaks
 * the tool's contract
 * @param title a short human-readable name for user interfaces (MCP's {@code title}), or
 * {@code null} for none
 * @param openWorld whether the tool reaches beyond the application, such as the web or
 * another system (MCP's {@code openWorldHint}); the fail-safe default is {@code true}
 * @param authorities the authorities a caller must hold, all of them, to call the tool,
 * such as {@code SCOPE_files.write}; empty when the tool itself requires none
 * (configuration may still require some)
 */
public record ToolDescriptor(String name, String description, String inputSchema, SafetyLevel safety, boolean readOnly,
		boolean idempotent, Set<String> tags, boolean returnDirect, Class<?> resultType, @Nullable String title,
		boolean openWorld, Set<String> authorities) {

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	/** The schema of a tool that takes no arguments. */
	public static final String EMPTY_OBJECT_SCHEMA = "{\"type\":\"object\",\"properties\":{}}";

	/**
	 * Validates the descriptor.
	 */
	public ToolDescriptor {
		Objects.requireNonNull(name, "name");
		if (!NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("Tool name '" + name
					+ "' is invalid: use 1 to 64 letters, digits, '_' or '-' (MCP and model providers accept no other)");
		}
		Objects.requireNonNull(description, "description");
		Objects.requireNonNull(inputSchema, "inputSchema");
		Objects.requireNonNull(safety, "safety");
		tags = Set.copyOf(tags);
		Objects.requireNonNull(resultType, "resultType");
		authorities = Set.copyOf(authorities);
		for (String authority : authorities) {
			if (authority.isBlank()) {
				throw new IllegalArgumentException("Tool '" + name + "' requires a blank authority: name each one, "
						+ "such as SCOPE_files.write or ROLE_ADMIN");
			}
		}
	}

	/**
	 * Creates a descriptor that requires no authorities.
	 * @param name the unique tool name
	 * @param description what the tool does
	 * @param inputSchema the JSON schema of the arguments object
	 * @param safety how much harm the tool can do
	 * @param readOnly whether the tool only reads
	 * @param idempotent whether repeating a call is safe
	 * @param tags free-form labels
	 * @param returnDirect whether the result goes straight to the user
	 * @param resultType the Java type the tool returns
	 * @param title a short human-readable name, or {@code null}
	 * @param openWorld whether the tool reaches beyond the application
	 */
	public ToolDescriptor(String name, String description, String inputSchema, SafetyLevel safety, boolean readOnly,
			boolean idempotent, Set<String> tags, boolean returnDirect, Class<?> resultType, @Nullable String title,
			boolean openWorld) {
		this(name, description, inputSchema, safety, readOnly, idempotent, tags, returnDirect, resultType, title,
				openWorld, Set.of());
	}

	/**
	 * Creates a descriptor without a title that counts as reaching an open world.
	 * @param name the unique tool name
	 * @param description what the tool does
	 * @param inputSchema the JSON schema of the arguments object
	 * @param safety how much harm the tool can do
	 * @param readOnly whether the tool only reads
	 * @param idempotent whether repeating a call is safe
	 * @param tags free-form labels
	 * @param returnDirect whether the result goes straight to the user
	 * @param resultType the Java type the tool returns
	 */
	public ToolDescriptor(String name, String description, String inputSchema, SafetyLevel safety, boolean readOnly,
			boolean idempotent, Set<String> tags, boolean returnDirect, Class<?> resultType) {
		this(name, description, inputSchema, safety, readOnly, idempotent, tags, returnDirect, resultType, null, true,
				Set.of());
	}

	/**
	 * Starts a descriptor for the named tool, with the fail-safe defaults: dangerous, not
	 * read-only, not idempotent, no tags, an empty arguments schema and an {@code Object}
	 * result.
	 * @param name the tool name
	 * @return a builder
	 */
	public static Builder builder(String name) {
		return new Builder(name);
	}

	/**
	 * Whether the tool carries the tag.
	 * @param tag the tag, compared ignoring case
	 * @return {@code true} if the tool is tagged with it
	 */
	public boolean hasTag(String tag) {
		for (String candidate : this.tags) {
			if (candidate.equalsIgnoreCase(tag)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether {@code value} is a valid result of this tool: {@code null} unless the tool
	 * returns a primitive, otherwise an instance of {@link #resultType()} (boxed for
	 * primitives).
	 * @param value a result produced for this tool
	 * @return {@code true} if a caller of the tool can accept it
	 */
	public boolean acceptsResult(@Nullable Object value) {
		if (this.resultType == Object.class || this.resultType == void.class || this.resultType == Void.class) {
			return true;
		}
		if (value == null) {
			return !this.resultType.isPrimitive();
		}
		return boxed(this.resultType).isInstance(value);
	}

	private static Class<?> boxed(Class<?> type) {
		if (!type.isPrimitive()) {
			return type;
		}
		if (type == int.class) {
			return Integer.class;
		}
		if (type == long.class) {
			return Long.class;
		}
		if (type == boolean.class) {
			return Boolean.class;
		}
		if (type == double.class) {
			return Double.class;
		}
		if (type == float.class) {
			return Float.class;
		}
		if (type == short.class) {
			return Short.class;
		}
		if (type == byte.class) {
			return Byte.class;
		}
		return Character.class;
	}

	/**
	 * Builds a {@link ToolDescriptor}.
	 */
	public static final class Builder {

		private final String name;

		private String description = "";

		private String inputSchema = EMPTY_OBJECT_SCHEMA;

		private SafetyLevel safety = SafetyLevel.DANGEROUS;

		private boolean readOnly;

		private boolean idempotent;

		private final Set<String> tags = new LinkedHashSet<>();

		private boolean returnDirect;

		private Class<?> resultType = Object.class;

		private @Nullable String title;

		private boolean openWorld = true;

		private final Set<String> authorities = new LinkedHashSet<>();

		private Builder(String name) {
			this.name = name;
		}

		/**
		 * Sets what the tool does.
		 * @param description the description for the model
		 * @return this builder
		 */
		public Builder description(String description) {
			this.description = description;
			return this;
		}

		/**
		 * Sets the JSON schema of the arguments object.
		 * @param inputSchema the schema as JSON text
		 * @return this builder
		 */
		public Builder inputSchema(String inputSchema) {
			this.inputSchema = inputSchema;
			return this;
		}

		/**
		 * Sets the safety level (default {@link SafetyLevel#DANGEROUS}).
		 * @param safety the safety level
		 * @return this builder
		 */
		public Builder safety(SafetyLevel safety) {
			this.safety = safety;
			return this;
		}

		/**
		 * Sets whether the tool only reads.
		 * @param readOnly whether the tool only reads
		 * @return this builder
		 */
		public Builder readOnly(boolean readOnly) {
			this.readOnly = readOnly;
			return this;
		}

		/**
		 * Sets whether repeating a call is safe.
		 * @param idempotent whether the tool is idempotent
		 * @return this builder
		 */
		public Builder idempotent(boolean idempotent) {
			this.idempotent = idempotent;
			return this;
		}

		/**
		 * Adds tags.
		 * @param tags the tags to add
		 * @return this builder
		 */
		public Builder tags(String... tags) {
			this.tags.addAll(Arrays.asList(tags));
			return this;
		}

		/**
		 * Sets whether the result goes straight to the user.
		 * @param returnDirect whether to return directly
		 * @return this builder
		 */
		public Builder returnDirect(boolean returnDirect) {
			this.returnDirect = returnDirect;
			return this;
		}

		/**
		 * Sets the Java type the tool returns.
		 * @param resultType the result type, {@code void.class} for none
		 * @return this builder
		 */
		public Builder resultType(Class<?> resultType) {
			this.resultType = resultType;
			return this;
		}

		/**
		 * Sets the short human-readable name shown in user interfaces.
		 * @param title the title, or {@code null} or empty for none
		 * @return this builder
		 */
		public Builder title(@Nullable String title) {
			this.title = (title != null && !title.isEmpty()) ? title : null;
			return this;
		}

		/**
		 * Sets whether the tool reaches beyond the application (default {@code true}).
		 * @param openWorld whether the tool interacts with an open world
		 * @return this builder
		 */
		public Builder openWorld(boolean openWorld) {
			this.openWorld = openWorld;
			return this;
		}

		/**
		 * Adds authorities a caller must hold to call the tool; a caller needs all of
		 * them.
		 * @param authorities the authorities, such as {@code SCOPE_files.write} or
		 * {@code ROLE_ADMIN}
		 * @return this builder
		 */
		public Builder authorities(String... authorities) {
			this.authorities.addAll(Arrays.asList(authorities));
			return this;
		}

		/**
		 * Builds the descriptor.
		 * @return the immutable descriptor
		 * @throws IllegalArgumentException if the name is not a valid tool name
		 */
		public ToolDescriptor build() {
			return new ToolDescriptor(this.name, this.description, this.inputSchema, this.safety, this.readOnly,
					this.idempotent, this.tags, this.returnDirect, this.resultType, this.title, this.openWorld,
					this.authorities);
		}

	}

	/**
	 * How much harm a tool can do, as the tool declares it
	 * ({@link ToolDescriptor#safety()}, {@code @AgentTool(safety = ...)}). It is part of
	 * the tool's description, shown by the actuator endpoint; a policy middleware (an
	 * approval step, an allow list) can decide by it, through the descriptor it gets when
	 * its pipeline is built.
	 *
	 * <p>
	 * A tool that declares no safety level counts as {@link #DANGEROUS}: the fail-safe
	 * default.
	 */
	public enum SafetyLevel {

		/** Reads data or computes; no side effects worth a human's attention. */
		SAFE,

		/** Changes state that can be restored (writes a file, updates a record). */
		MODERATE,

		/** Destroys data, spends money or reaches the outside world. */
		DANGEROUS

	}

}
