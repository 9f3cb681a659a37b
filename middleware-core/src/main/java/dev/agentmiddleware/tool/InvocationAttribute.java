package dev.agentmiddleware.tool;

import java.util.Objects;

/**
 * A typed key for a value carried by a {@link ToolInvocation}.
 *
 * <p>
 * Keys compare by identity, so two libraries that both name a key {@code "tenant"} never
 * collide. Declare each key once, as a constant: <pre>{@code
 * static final InvocationAttribute<String> TENANT = InvocationAttribute.of("tenant", String.class);
 *
 * ToolInvocation tagged = invocation.withAttribute(TENANT, "acme");
 * String tenant = tagged.attribute(TENANT); // "acme"
 * }</pre>
 *
 * @param <T> the type of the value
 */
public final class InvocationAttribute<T> {

	private final String name;

	private final Class<T> type;

	private InvocationAttribute(String name, Class<T> type) {
		this.name = Objects.requireNonNull(name, "name");
		this.type = Objects.requireNonNull(type, "type");
	}

	/**
	 * Creates a new key.
	 * @param name a name for messages and debugging
	 * @param type the type of the values stored under this key
	 * @param <T> the type of the values
	 * @return a key distinct from every other key
	 */
	public static <T> InvocationAttribute<T> of(String name, Class<T> type) {
		return new InvocationAttribute<>(name, type);
	}

	/**
	 * The name given at creation.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * The type of the values stored under this key.
	 * @return the value type
	 */
	public Class<T> type() {
		return this.type;
	}

	T cast(Object value) {
		return this.type.cast(value);
	}

	@Override
	public String toString() {
		return this.name + " (" + this.type.getSimpleName() + ")";
	}

}
