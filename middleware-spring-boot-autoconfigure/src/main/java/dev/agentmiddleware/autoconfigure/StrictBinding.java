package dev.agentmiddleware.autoconfigure;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;

/**
 * The one rule every section of {@code agent.middleware} is bound by, whichever class
 * binds it: a key that no field binds fails startup (as
 * {@code ignoreUnknownFields = false} would, but for every section, including ones that
 * other modules add), and a {@link ValidatedProperties} class checks its values as soon
 * as they are bound. The failure analysis ({@link AgentMiddlewareFailureAnalyzer})
 * reports either with the property, value and origin.
 *
 * <p>
 * Keys that belong to a deeper section with a class of its own (from the configuration
 * metadata) are left to that class; keys directly under {@code agent.middleware} that the
 * root properties do not have are left to {@link UnknownPropertiesCheck}, which lists
 * every key there. As with Boot's {@code ignoreUnknownFields = false}, environment
 * variables and system properties are not held to it (they hold keys of every application
 * on the machine); {@link UnknownPropertiesCheck} still checks their first key.
 */
final class StrictBinding implements ConfigurationPropertiesBindHandlerAdvisor {

	private final Supplier<PropertySections> sections;

	StrictBinding() {
		this(PropertySections::onClassPath);
	}

	StrictBinding(Supplier<PropertySections> sections) {
		this.sections = sections;
	}

	@Override
	public BindHandler apply(BindHandler bindHandler) {
		return new StrictBindHandler(bindHandler, this.sections.get());
	}

	private static final class StrictBindHandler extends AbstractBindHandler {

		private final BindHandler lenient;

		private final NoUnboundElementsBindHandler strict;

		private final PropertySections sections;

		private @Nullable ConfigurationPropertyName root;

		StrictBindHandler(BindHandler parent, PropertySections sections) {
			super(parent);
			this.lenient = parent;
			this.strict = new NoUnboundElementsBindHandler(parent, new UnboundElementsSourceFilter());
			this.sections = sections;
		}

		private BindHandler delegate() {
			return (this.root != null) ? this.strict : this.lenient;
		}

		@Override
		public <T> @Nullable Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target,
				BindContext context) {
			if (context.getDepth() == 0) {
				boolean ours = PropertySections.ROOT.equals(name) || PropertySections.ROOT.isAncestorOf(name);
				this.root = ours ? name : null;
			}
			return delegate().onStart(name, target, context);
		}

		@Override
		public @Nullable Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				Object result) {
			return delegate().onSuccess(name, target, context, result);
		}

		@Override
		public @Nullable Object onCreate(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				Object result) {
			return delegate().onCreate(name, target, context, result);
		}

		@Override
		public @Nullable Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				Exception error) throws Exception {
			return delegate().onFailure(name, target, context, error);
		}

		@Override
		public void onFinish(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				@Nullable Object result) throws Exception {
			// The strict handler only checks here, without calling on: the rest of the
			// chain (validation) always runs.
			this.lenient.onFinish(name, target, context, result);
			ConfigurationPropertyName root = this.root;
			if (root == null || context.getDepth() != 0) {
				return;
			}
			try {
				this.strict.onFinish(name, target, context, result);
			}
			catch (UnboundConfigurationPropertiesException ex) {
				Set<ConfigurationProperty> unknown = new TreeSet<>();
				for (ConfigurationProperty property : ex.getUnboundProperties()) {
					if (!isLeftToOthers(root, property.getName(), target)) {
						unknown.add(property);
					}
				}
				if (!unknown.isEmpty()) {
					throw new UnboundConfigurationPropertiesException(unknown);
				}
			}
			Object bound = (result != null) ? result : (target.getValue() != null) ? target.getValue().get() : null;
			if (bound instanceof ValidatedProperties validated) {
				validated.validate(new PropertyChecks(root.toString()));
			}
		}

		private boolean isLeftToOthers(ConfigurationPropertyName root, ConfigurationPropertyName name,
				Bindable<?> target) {
			if (this.sections.belongsToDeeperSection(root, name)) {
				return true;
			}
			if (root.equals(PropertySections.ROOT)) {
				Class<?> type = target.getType().resolve();
				String key = name.getElement(root.getNumberOfElements(), Form.UNIFORM);
				return type == null || Arrays.stream(BeanUtils.getPropertyDescriptors(type))
					.noneMatch((descriptor) -> descriptor.getName().equalsIgnoreCase(key));
			}
			return false;
		}

	}

}
