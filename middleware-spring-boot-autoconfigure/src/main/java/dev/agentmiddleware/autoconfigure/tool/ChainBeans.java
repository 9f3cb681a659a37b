package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.chain.ArgumentBindingMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.chain.ToolInterceptor;
import dev.agentmiddleware.chain.ToolMiddleware;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.annotation.OrderUtils;

/**
 * Collects the {@link ToolMiddleware} and {@link ToolInterceptor} beans of a context into
 * one chain, outermost first: ordered together by {@code @Order} on the {@code @Bean}
 * method, {@link OrderedMiddleware#order()} (the built-ins, whose order is configurable),
 * {@code Ordered} or {@code @Order} on the class (a lower order runs further out); beans
 * without an order run innermost, after the built-ins, in registration order.
 */
final class ChainBeans {

	private ChainBeans() {
	}

	/**
	 * The ordered chain of a context.
	 * @param beanFactory the context's bean factory
	 * @return the middleware, interceptors adapted, outermost first
	 */
	static List<ToolMiddleware> ordered(ConfigurableListableBeanFactory beanFactory) {
		Map<String, Object> beans = new LinkedHashMap<>(beanFactory.getBeansOfType(ToolMiddleware.class));
		beanFactory.getBeansOfType(ToolInterceptor.class).forEach(beans::putIfAbsent);
		if (beans.values().stream().noneMatch(ArgumentBindingMiddleware.class::isInstance)) {
			// Always in the chain, at its order, so that observation and logging see
			// calls refused for bad arguments
			beans.put("argumentBindingMiddleware", ArgumentBindingMiddleware.INSTANCE);
		}
		Map<Object, Object> orderSources = new IdentityHashMap<>();
		beans.forEach((name, bean) -> {
			Method factoryMethod = factoryMethod(beanFactory, name);
			if (factoryMethod != null && OrderUtils.getOrder(factoryMethod) != null) {
				orderSources.put(bean, factoryMethod);
			}
			else if (bean instanceof OrderedMiddleware ordered && !(bean instanceof Ordered)) {
				orderSources.put(bean, (Ordered) ordered::order);
			}
		});
		List<Object> sorted = new ArrayList<>(beans.values());
		sorted.sort(AnnotationAwareOrderComparator.INSTANCE.withSourceProvider(orderSources::get));
		List<ToolMiddleware> chain = new ArrayList<>(sorted.size());
		for (Object bean : sorted) {
			chain.add(
					(bean instanceof ToolMiddleware middleware) ? middleware : ((ToolInterceptor) bean).asMiddleware());
		}
		return List.copyOf(chain);
	}

	private static @Nullable Method factoryMethod(ConfigurableListableBeanFactory beanFactory, String name) {
		if (!beanFactory.containsBeanDefinition(name)) {
			return null;
		}
		BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
		return (definition instanceof RootBeanDefinition root) ? root.getResolvedFactoryMethod() : null;
	}

}
