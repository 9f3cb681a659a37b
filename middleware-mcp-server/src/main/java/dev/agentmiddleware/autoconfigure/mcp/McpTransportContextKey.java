package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;
import java.util.Objects;

import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;

/**
 * A typed key of a value the transport puts in the MCP SDK's transport context of a
 * request, for the handlers that read it back: the SDK's context maps strings to objects,
 * so the value is declared once, by the class it belongs to, as a key that writes it
 * under its name and reads back only a value of its type, with no string or cast repeated
 * elsewhere. The transport puts one value there, the request's {@link McpRequestContext}.
 * <pre>{@code
 * static final McpTransportContextKey<McpRequestContext> KEY = McpTransportContextKey.of("agent.request", McpRequestContext.class);
 *
 * Map<String, Object> context = new HashMap<>();
 * KEY.put(context, request);                                                // the transport
 * McpRequestContext request = KEY.get(McpTransportContext.create(context)); // a handler
 * }</pre>
 *
 * @param <T> the type of the value
 */
final class McpTransportContextKey<T> {

	private final String name;

	private final Class<T> type;

	private McpTransportContextKey(String name, Class<T> type) {
		this.name = Objects.requireNonNull(name, "name");
		this.type = Objects.requireNonNull(type, "type");
	}

	/**
	 * Declares a key.
	 * @param name the name the value is put under in the transport context
	 * @param type the type of the value
	 * @param <T> the type of the value
	 * @return the key
	 */
	static <T> McpTransportContextKey<T> of(String name, Class<T> type) {
		return new McpTransportContextKey<>(name, type);
	}

	/**
	 * The name the value is put under.
	 * @return the name
	 */
	String name() {
		return this.name;
	}

	/**
	 * Puts a value under this key in the map a transport context is created from
	 * ({@link McpTransportContext#create(Map)}).
	 * @param context the map
	 * @param value the value
	 */
	void put(Map<String, Object> context, T value) {
		context.put(this.name, Objects.requireNonNull(value, "value"));
	}

	/**
	 * The value under this key in a request's transport context.
	 * @param context the transport context
	 * @return the value, or {@code null} when the transport put none (or none of this
	 * key's type)
	 */
	@Nullable T get(McpTransportContext context) {
		Object value = context.get(this.name);
		return this.type.isInstance(value) ? this.type.cast(value) : null;
	}

	@Override
	public String toString() {
		return this.name + " (" + this.type.getSimpleName() + ")";
	}

}
