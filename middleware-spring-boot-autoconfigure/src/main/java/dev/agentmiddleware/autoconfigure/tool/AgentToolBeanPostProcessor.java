package dev.agentmiddleware.autoconfigure.tool;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.agentmiddleware.spring.AgentTool;

import org.springframework.aop.framework.AbstractAdvisingBeanPostProcessor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.core.Ordered;
import org.springframework.util.function.SingletonSupplier;

/**
 * Wraps every bean with {@link AgentTool @AgentTool} methods in the tools' middleware
 * chain and registers its tools.
 *
 * <p>
 * The bean gets a class-based proxy (interface-based JDK proxies break Spring AI tool
 * calls); a bean that is already a Spring AOP proxy gets our advisor added in front of
 * its others instead of a second proxy. A direct Java call of a tool method then runs the
 * chain; Spring AI and MCP calls run the same pipeline through the
 * {@link AgentToolRegistry}, which calls the bean itself, so the chain runs exactly once
 * per call whatever the path. The registry is resolved on the first bean that declares
 * tools, never earlier.
 */
final class AgentToolBeanPostProcessor extends AbstractAdvisingBeanPostProcessor {

	private final Supplier<AgentToolRegistry> registry;

	private final Map<Class<?>, Boolean> declaresTools = new ConcurrentHashMap<>();

	/**
	 * Creates the post-processor whose Java calls take their session from
	 * {@link ToolCallSessionResolver#standard()}.
	 * @param registry supplies the registry, resolved lazily
	 */
	AgentToolBeanPostProcessor(Supplier<AgentToolRegistry> registry) {
		this(registry, ToolCallSessionResolver::standard);
	}

	/**
	 * Creates the post-processor.
	 * @param registry supplies the registry, resolved lazily
	 * @param sessionResolver supplies the resolver of a Java call's session, resolved
	 * lazily
	 */
	AgentToolBeanPostProcessor(Supplier<AgentToolRegistry> registry,
			Supplier<ToolCallSessionResolver> sessionResolver) {
		this.registry = SingletonSupplier.of(registry);
		setProxyTargetClass(true);
		setBeforeExistingAdvisors(true);
		setOrder(Ordered.LOWEST_PRECEDENCE);
		DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(
				new AnnotationMatchingPointcut(null, AgentTool.class, true),
				new AgentToolMethodInterceptor(this.registry, SingletonSupplier.of(sessionResolver)));
		advisor.setOrder(Ordered.HIGHEST_PRECEDENCE);
		this.advisor = advisor;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		Class<?> targetClass = AopUtils.getTargetClass(bean);
		if (!this.declaresTools.computeIfAbsent(targetClass, (type) -> !ToolMethods.of(type).isEmpty())) {
			return bean;
		}
		boolean joinsExistingProxy = bean instanceof Advised advised && !advised.isFrozen();
		this.registry.get().register(beanName, bean, joinsExistingProxy);
		return super.postProcessAfterInitialization(bean, beanName);
	}

}
