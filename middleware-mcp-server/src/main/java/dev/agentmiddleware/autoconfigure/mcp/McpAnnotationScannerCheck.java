package dev.agentmiddleware.autoconfigure.mcp;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Says at startup when Spring AI's MCP annotation scanner is off by this starter's
 * default ({@link McpServerDefaultsEnvironmentPostProcessor}) while beans of the
 * application declare MCP annotations it would publish: one WARN naming the beans and the
 * property that turns the scanner on. Silent when the application set the property
 * itself, and when no bean uses the annotations (a fresh application).
 */
final class McpAnnotationScannerCheck implements SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(McpAnnotationScannerCheck.class);

	private static final List<String> ANNOTATIONS = List.of("org.springframework.ai.mcp.annotation.McpTool",
			"org.springframework.ai.mcp.annotation.McpResource", "org.springframework.ai.mcp.annotation.McpPrompt",
			"org.springframework.ai.mcp.annotation.McpComplete");

	private static final String ATTACHED_VIEW = "configurationProperties";

	private final ConfigurableListableBeanFactory beanFactory;

	private final ConfigurableEnvironment environment;

	McpAnnotationScannerCheck(ConfigurableListableBeanFactory beanFactory, ConfigurableEnvironment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (!offByOurDefault()) {
			return;
		}
		List<Class<? extends Annotation>> annotations = annotationTypes();
		Set<String> annotated = new TreeSet<>();
		for (String name : this.beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = this.beanFactory.getBeanDefinition(name);
			if (definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE || definition.isAbstract()) {
				continue;
			}
			Class<?> type = this.beanFactory.getType(name, false);
			if (type != null && declaresAny(ClassUtils.getUserClass(type), annotations)) {
				annotated.add(name);
			}
		}
		if (!annotated.isEmpty()) {
			logger.warn("Beans {} declare Spring AI MCP annotations (@McpTool, @McpResource, @McpPrompt, "
					+ "@McpComplete), but this starter turns Spring AI's annotation scanner off by default, so the "
					+ "MCP server does not publish them. Set {}=true to publish them (@McpTool methods then bypass "
					+ "the middleware chain: declare tools with @AgentTool instead).", annotated,
					McpServerDefaultsEnvironmentPostProcessor.ANNOTATION_SCANNER_ENABLED);
		}
	}

	// Off, and no property source but our defaults says so.
	private boolean offByOurDefault() {
		String key = McpServerDefaultsEnvironmentPostProcessor.ANNOTATION_SCANNER_ENABLED;
		if (!"false".equalsIgnoreCase(this.environment.getProperty(key))) {
			return false;
		}
		for (PropertySource<?> source : this.environment.getPropertySources()) {
			// Boot's attached source is a view over all the others
			if (!ATTACHED_VIEW.equals(source.getName()) && source.containsProperty(key)) {
				return McpServerDefaultsEnvironmentPostProcessor.PROPERTY_SOURCE_NAME.equals(source.getName());
			}
		}
		return false;
	}

	@SuppressWarnings("unchecked")
	private List<Class<? extends Annotation>> annotationTypes() {
		List<Class<? extends Annotation>> types = new ArrayList<>();
		for (String name : ANNOTATIONS) {
			Class<?> type = resolve(name);
			if (type != null && type.isAnnotation()) {
				types.add((Class<? extends Annotation>) type);
			}
		}
		return types;
	}

	private @Nullable Class<?> resolve(String name) {
		try {
			return ClassUtils.forName(name, this.beanFactory.getBeanClassLoader());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

	private static boolean declaresAny(Class<?> type, List<Class<? extends Annotation>> annotations) {
		if (annotations.isEmpty() || type.getName().startsWith("org.springframework.")) {
			return false;
		}
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
			for (Class<? extends Annotation> annotation : annotations) {
				if (AnnotatedElementUtils.hasAnnotation(method, annotation)) {
					return true;
				}
			}
		}
		return false;
	}

}
