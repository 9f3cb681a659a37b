package dev.agentmiddleware.autoconfigure.actuate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;

/**
 * Adds a feature's section to the {@code agentmiddleware} actuator endpoint: a global
 * section (statistics, pending work, an audit tail) and, for each tool, the feature's
 * effective settings for that tool.
 *
 * <p>
 * Every bean of this type contributes, in {@code @Order}/{@code Ordered} order. Its
 * {@link #name()} is the key of its section: under {@code sections} in the overview, and
 * under {@code settings} of each tool it describes. Both methods are called on every read
 * of the endpoint, on an HTTP (or JMX) thread, so they must be thread-safe, cheap and
 * return a snapshot: records, maps, lists, strings, numbers, enums or {@code java.time}
 * values that Jackson can write. They must never return argument values, results or
 * secrets, only configuration, counts and normalised or redacted text. <pre>{@code
 * &#64;Bean
 * AgentMiddlewareEndpointContributor cacheEndpointContributor(ToolResultCache results, CacheMiddleware cache) {
 *     return new AgentMiddlewareEndpointContributor() {
 *

 *         &#64;Override
 *         public String name() {
 *             return "cache";
 *         }
 *
 *         &#64;Override
 *         public Object describe() {
 *             return results.statistics(); // hits, misses, evictions and size per tool
 *         }
 *
 *
&#64;Override
 *         public @Nullable Object describeTool(RegisteredTool tool) {
 *             return cache.policies().get(tool.name()); // null for a tool that is not cached
 *         }
 *
 *     };
 * }
 * }</pre> A feature declares its contributor in its own auto-configuration, in a nested
 * configuration guarded by {@code @ConditionalOnClass(Endpoint.class)}, so that it costs
 * nothing without Actuator. A middleware with a policy per tool uses
 * {@link PolicyEndpointContributor}, as the built-ins do (beans
 * {@code cacheEndpointContributor}, {@code retryEndpointContributor} and so on, which a
 * bean of the same name replaces).
 */
public interface AgentMiddlewareEndpointContributor {

	/** The scope of {@link #describe(String, String)} for one thread. */
	String THREADS = "threads";

	/** The scope of {@link #describe(String, String)} for one principal. */
	String PRINCIPALS = "principals";

	/**
	 * The key of this contributor's sections, unique among contributors, in kebab case,
	 * such as {@code cache}, {@code rate-limit}, {@code approval} or {@code learning}.
	 * @return the name
	 */
	String name();

	/**
	 * The global section, such as statistics over all tools.
	 * @return the section, or {@code null} for none
	 */
	@Nullable Object describe();

	/**
	 * This feature's part of one tool's description, typically its effective settings for
	 * the tool (defaults merged with the tool's overrides) when it applies to the tool.
	 * @param tool the tool
	 * @return the part, or {@code null} when the feature has nothing to say about the
	 * tool (it does not apply)
	 */
	default @Nullable Object describeTool(RegisteredTool tool) {
		return null;
	}

	/**
	 * This feature's part of the view of one thread or one principal, for {@code GET
	 * /actuator/agentmiddleware/threads/{id}} and {@code GET
	 * /actuator/agentmiddleware/principals/{name}} (such as what is left of its budgets).
	 * The id is a secret of its thread: never return it.
	 * @param scope {@value #THREADS} or {@value #PRINCIPALS}
	 * @param id the thread id or the principal's name
	 * @return the part, or {@code null} when the feature has nothing to say about it
	 */
	default @Nullable Object describe(String scope, String id) {
		return null;
	}

	/**
	 * The {@code agentmiddleware} endpoint's view of one middleware that runs a policy
	 * per tool, such as the cache or the rate limit: for each tool whose chain contains
	 * the middleware, the policy the middleware uses for it, and optionally a global
	 * section such as statistics.
	 *
	 * <p>
	 * The contributor is named and ordered like its middleware, so that each tool's
	 * {@code settings} list the features in chain order, under the names its printed
	 * chain shows. A tool whose chain does not contain the middleware gets no part,
	 * whatever the policy function says. Policies and sections are written as plain JSON
	 * values: a record as an object of its components in declaration order, a
	 * {@link Duration} as exact text in Spring Boot's simple format ({@code 250ms},
	 * {@code 30s}, {@code 5m}, {@code 1h}, or ISO-8601 below a millisecond), a
	 * {@link Class} as its name, an enum as its name, maps and collections element by
	 * element. <pre>{@code
	 * &#64;Bean
	 * PolicyEndpointContributor cacheEndpointContributor(CacheMiddleware cache) {
	 *     return PolicyEndpointContributor.of(cache, (tool) -> cache.policies().get(tool))
	 *         .withSection(cache::statistics);
	 * }
	 * }</pre> Policies must hold configuration only, never argument values or secrets.
	 */
	public static final class PolicyEndpointContributor implements AgentMiddlewareEndpointContributor, Ordered {

		private final String name;

		private final int order;

		private final Function<String, ? extends @Nullable Object> policies;

		private final Supplier<? extends @Nullable Object> section;

		private PolicyEndpointContributor(String name, int order, Function<String, ? extends @Nullable Object> policies,
				Supplier<? extends @Nullable Object> section) {
			this.name = name;
			this.order = order;
			this.policies = policies;
			this.section = section;
		}

		/**
		 * Describes a built-in's policy per tool as it decided when the tools' pipelines
		 * were built ({@link BuiltInMiddleware#policies()}), with no global section.
		 * <pre>{@code
		 * &#64;Bean
		 * PolicyEndpointContributor retryEndpointContributor(RetryMiddleware retry) {
		 *     return PolicyEndpointContributor.of(retry);
		 * }
		 * }</pre>
		 * @param middleware the built-in; gives the contributor its name, its order and
		 * the policies
		 * @return the contributor
		 */
		public static PolicyEndpointContributor of(BuiltInMiddleware<?> middleware) {
			return of(middleware, (tool) -> middleware.policies().get(tool));
		}

		/**
		 * Describes a middleware's policy per tool, with no global section.
		 * @param middleware the middleware; gives the contributor its name and order
		 * @param policies the policy the middleware uses for a tool, by tool name, or
		 * {@code null} for none; asked only for the tools whose chain contains the
		 * middleware
		 * @return the contributor
		 */
		public static PolicyEndpointContributor of(OrderedMiddleware middleware,
				Function<String, ? extends @Nullable Object> policies) {
			Objects.requireNonNull(middleware, "middleware");
			return new PolicyEndpointContributor(middleware.name(), middleware.order(),
					Objects.requireNonNull(policies, "policies"), () -> null);
		}

		/**
		 * A copy with a global section.
		 * @param section gives the section on every read of the endpoint, or {@code null}
		 * for none
		 * @return the changed copy
		 */
		public PolicyEndpointContributor withSection(Supplier<? extends @Nullable Object> section) {
			return new PolicyEndpointContributor(this.name, this.order, this.policies,
					Objects.requireNonNull(section, "section"));
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public int getOrder() {
			return this.order;
		}

		@Override
		public @Nullable Object describe() {
			return render(this.section.get());
		}

		@Override
		public @Nullable Object describeTool(RegisteredTool tool) {
			if (!tool.pipeline().layers().contains(this.name)) {
				return null;
			}
			return render(this.policies.apply(tool.name()));
		}

		/**
		 * Writes a duration as exact text in Spring Boot's simple format, in the largest
		 * unit that divides it: {@code 250ms}, {@code 1500ms}, {@code 30s}, {@code 90s},
		 * {@code 5m}, {@code 2h}; below a millisecond (or negative) in ISO-8601.
		 * @param duration the duration
		 * @return the text, which binds back to the same {@link Duration} in properties
		 */
		public static String text(Duration duration) {
			if (duration.isZero()) {
				return "0s";
			}
			if (duration.isNegative() || duration.getNano() % 1_000_000 != 0) {
				return duration.toString();
			}
			long millis = duration.toMillis();
			if (millis % 3_600_000 == 0) {
				return (millis / 3_600_000) + "h";
			}
			if (millis % 60_000 == 0) {
				return (millis / 60_000) + "m";
			}
			if (millis % 1000 == 0) {
				return (millis / 1000) + "s";
			}
			return millis + "ms";
		}

		private static @Nullable Object render(@Nullable Object value) {
			if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
				return value;
			}
			if (value instanceof Duration duration) {
				return text(duration);
			}
			if (value instanceof Class<?> type) {
				return type.getName();
			}
			if (value instanceof Enum<?> constant) {
				return constant.name();
			}
			if (value instanceof Map<?, ?> map) {
				Map<String, @Nullable Object> rendered = new LinkedHashMap<>();
				map.forEach((key, element) -> rendered.put(String.valueOf(key), render(element)));
				return rendered;
			}
			if (value instanceof Collection<?> collection) {
				List<@Nullable Object> rendered = new ArrayList<>(collection.size());
				for (Object element : collection) {
					rendered.add(render(element));
				}
				return rendered;
			}
			if (value instanceof Record record) {
				return components(record);
			}
			return value;
		}

		private static Map<String, @Nullable Object> components(Record record) {
			Map<String, @Nullable Object> rendered = new LinkedHashMap<>();
			for (RecordComponent component : record.getClass().getRecordComponents()) {
				try {
					rendered.put(component.getName(), render(component.getAccessor().invoke(record)));
				}
				catch (IllegalAccessException | InvocationTargetException ex) {
					throw new IllegalStateException("Cannot read " + component.getName() + " of "
							+ record.getClass().getName() + " for the agentmiddleware endpoint", ex);
				}
			}
			return rendered;
		}

	}

}
