package dev.agentmiddleware.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when a feature's {@code <prefix>.store.type} (default {@code auto}) is one of the given
 * {@link StoreType}s. It does not look for a {@code DataSource}: combine it with {@code @ConditionalOnBean} /
 * {@code @ConditionalOnMissingBean(DataSource.class)} as {@link StoreType} shows. A value that is not a store type
 * matches nothing, and binding the properties then fails startup naming the property and the valid types.
 * <pre>{@code
 * @ConditionalOnStoreType(prefix = "agent.middleware.approval", value = { StoreType.AUTO, StoreType.JDBC })
 * }</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnStoreTypeCondition.class)
public @interface ConditionalOnStoreType {

	/**
	 * The feature's prefix, such as {@code agent.middleware.approval}.
	 * @return the prefix
	 */
	String prefix();

	/**
	 * The store types that match.
	 * @return the types
	 */
	StoreType[] value();

}
