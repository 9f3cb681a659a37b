package dev.agentmiddleware.internal;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import dev.agentmiddleware.tool.ToolDescriptor;

import org.jspecify.annotations.Nullable;

/**
 * The per-tool policies of a middleware: decides, when a tool's pipeline is built, which
 * policy applies to the tool (or none, and the middleware stays out of its chain), and
 * remembers the decision so that what is reported about a tool, such as by the actuator
 * endpoint, is what actually runs. Thread-safe. <pre>{@code
 * public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
 *     TimeoutPolicy policy = this.policies.resolve(tool);
 *     return (policy != null) ? new TimedHandler(policy, next) : next;
 * }
 * }</pre>
 *
 * @param <P> the policy type
 */
public final class ToolPolicies<P> {

	private final Function<ToolDescriptor, @Nullable P> resolver;

	private final ConcurrentMap<String, P> applied = new ConcurrentHashMap<>();

	private ToolPolicies(Function<ToolDescriptor, @Nullable P> resolver) {
		this.resolver = Objects.requireNonNull(resolver, "resolver");
	}

	/**
	 * Creates the policies.
	 * @param resolver the policy of a tool, or {@code null} when the middleware does not
	 * apply to it
	 * @param <P> the policy type
	 * @return the policies
	 */
	public static <P> ToolPolicies<P> of(Function<ToolDescriptor, @Nullable P> resolver) {
		return new ToolPolicies<>(resolver);
	}

	/**
	 * Decides the policy of a tool whose pipeline is being built, and remembers it.
	 * @param tool the tool
	 * @return its policy, or {@code null} when the middleware does not apply to it
	 */
	public @Nullable P resolve(ToolDescriptor tool) {
		P policy = this.resolver.apply(tool);
		if (policy == null) {
			this.applied.remove(tool.name());
		}
		else {
			this.applied.put(tool.name(), policy);
		}
		return policy;
	}

	/**
	 * The policy of every tool the middleware applies to, as decided when the tools'
	 * pipelines were built.
	 * @return the policies by tool name, sorted by name
	 */
	public Map<String, P> applied() {
		return Collections.unmodifiableMap(new TreeMap<>(this.applied));
	}

}
