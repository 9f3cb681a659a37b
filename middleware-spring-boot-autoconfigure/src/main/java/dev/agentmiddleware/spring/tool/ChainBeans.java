package dev.agentmiddleware.spring.tool;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.chain.ToolInterceptor;
import dev.agentmiddleware.chain.ToolMiddleware;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;

/**
 * Collects the {@link ToolMiddleware} and {@link ToolInterceptor} beans of a context into one chain, outermost
 * first: ordered together by {@code Ordered}, {@code @Order} on the class or on the {@code @Bean} method (a lower
 * order runs further out); beans without an order run innermost, after the built-ins, in registration order.
 */
public final class ChainBeans {

	private ChainBeans() {
	}

	/**
	 * The ordered chain of a context.
	 * @param beanFactory the context's bean factory
	 * @return the middleware, interceptors adapted, outermost first
	 */
	public static List<ToolMiddleware> ordered(ConfigurableListableBeanFactory beanFactory) {
		Map<String, Object> beans = new LinkedHashMap<>(beanFactory.getBeansOfType(ToolMiddleware.class));
		beanFactory.getBeansOfType(ToolInterceptor.class).forEach(beans::putIfAbsent);
		Map<Object, Method> factoryMethods = new IdentityHashMap<>();
		beans.forEach((name, bean) -> {
			if (beanFactory.containsBeanDefinition(name)) {
				BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
				if (definition instanceof RootBeanDefinition root && root.getResolvedFactoryMethod() != null) {
					factoryMethods.put(bean, root.getResolvedFactoryMethod());
				}
			}
		});
		List<Object> sorted = new ArrayList<>(beans.values());
		sorted.sort(AnnotationAwareOrderComparator.INSTANCE.withSourceProvider(factoryMethods::get));
		List<ToolMiddleware> chain = new ArrayList<>(sorted.size());
		for (Object bean : sorted) {
			chain.add((bean instanceof ToolMiddleware middleware) ? middleware : ((ToolInterceptor) bean).asMiddleware());
		}
		return List.copyOf(chain);
	}

}
