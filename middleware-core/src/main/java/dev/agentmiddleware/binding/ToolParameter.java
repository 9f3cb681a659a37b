package dev.agentmiddleware.binding;

import java.lang.reflect.Type;
import java.util.Objects;

/**
 * One parameter of a tool, as the arguments of a call are bound to it.
 *
 * <p>
 * A parameter of a primitive type ({@code int}, {@code boolean}, ...) is always required,
 * whatever {@code required} says: there is no value that could stand for its absence.
 * <pre>{@code
 * new ToolParameter("city", String.class, "City name, e.g. Lisbon", true);
 * new ToolParameter("days", int.class, "Days to forecast", true);
 * }</pre>
 *
 * @param name the parameter name, the key of its value in the JSON arguments object
 * @param type the generic Java type the value is bound to, such as {@code List<Integer>}
 * @param description what the parameter means, for the model; may be empty
 * @param required whether a call must supply the parameter
 */
public record ToolParameter(String name, Type type, String description, boolean required) {

	/**
	 * Validates the parameter.
	 */
	public ToolParameter {
		Objects.requireNonNull(name, "name");
		if (name.isEmpty()) {
			throw new IllegalArgumentException("A tool parameter needs a name");
		}
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(description, "description");
	}

	/**
	 * Whether a call must supply the parameter: it is declared required or its type is
	 * primitive.
	 * @return {@code true} if a call that leaves out the parameter, or gives it as
	 * {@code null}, is invalid
	 */
	public boolean isRequired() {
		return this.required || (this.type instanceof Class<?> type && type.isPrimitive());
	}

}
