package dev.agentmiddleware.chain;

/**
 * Middleware that knows its place in a chain: a lower order runs further out. The built-ins implement it with the
 * defaults of {@link BuiltInOrder}, changeable per application; the Spring layer sorts them together with
 * {@code @Order} and {@code Ordered} beans.
 * <pre>{@code
 * final class TenantPolicy implements OrderedMiddleware {
 *     public int order() { return BuiltInOrder.POLICY; }
 *     public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) { ... }
 * }
 * }</pre>
 */
public interface OrderedMiddleware extends ToolMiddleware {

	/**
	 * The position of this middleware: a lower value runs further out.
	 * @return the order
	 */
	int order();

}
