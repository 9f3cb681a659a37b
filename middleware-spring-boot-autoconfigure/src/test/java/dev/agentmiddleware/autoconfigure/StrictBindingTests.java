package dev.agentmiddleware.autoconfigure;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The binding rule of every {@code agent.middleware} section, whichever class binds it:
 * unknown keys fail, a deeper section with a class of its own is left to that class,
 * other prefixes are bound as Boot binds them, and a {@link ValidatedProperties} class
 * checks its values once bound.
 */
class StrictBindingTests {

	private final StrictBinding binding = new StrictBinding(() -> PropertySections.of(Map.of("agent.middleware.widget",
			WidgetProperties.class.getName(), "agent.middleware.widget.security", SecurityProperties.class.getName())));

	@Test
	void anUnknownKeyOfASectionFailsItsBinding() {
		assertThatExceptionOfType(BindException.class)
			.isThrownBy(() -> bind("agent.middleware.widget", new WidgetProperties(),
					Map.of("agent.middleware.widget.max-itms", "3")))
			.havingRootCause()
			.isInstanceOf(UnboundConfigurationPropertiesException.class)
			.withMessageContaining("agent.middleware.widget.max-itms");
	}

	@Test
	void aDeeperSectionWithAClassOfItsOwnIsLeftToThatClass() {
		Map<String, String> properties = Map.of("agent.middleware.widget.max-items", "3",
				"agent.middleware.widget.security.required-role", "ADMIN");
		WidgetProperties widget = bind("agent.middleware.widget", new WidgetProperties(), properties);
		SecurityProperties security = bind("agent.middleware.widget.security", new SecurityProperties(), properties);
		assertThat(widget.getMaxItems()).isEqualTo(3);
		assertThat(security.getRequiredRole()).isEqualTo("ADMIN");
	}

	@Test
	void aValueOutOfItsLimitsFailsItsBindingNamingTheProperty() {
		assertThatExceptionOfType(BindException.class)
			.isThrownBy(() -> bind("agent.middleware.widget", new WidgetProperties(),
					Map.of("agent.middleware.widget.max-items", "0")))
			.havingRootCause()
			.isInstanceOfSatisfying(InvalidToolConfigurationException.class, (invalid) -> {
				assertThat(invalid.getProperty()).isEqualTo("agent.middleware.widget.max-items");
				assertThat(invalid.getReason()).isEqualTo("must be 1 or more");
			});
	}

	@Test
	void otherPrefixesAreBoundAsBootBindsThem() {
		WidgetProperties widget = bind("other.widget", new WidgetProperties(),
				Map.of("other.widget.max-items", "0", "other.widget.unknown", "x"));
		assertThat(widget.getMaxItems()).isZero();
	}

	private <T> T bind(String prefix, T target, Map<String, String> properties) {
		Binder binder = new Binder(new MapConfigurationPropertySource(properties));
		return binder.bind(prefix, Bindable.ofInstance(target), this.binding.apply(BindHandler.DEFAULT)).get();
	}

	public static class WidgetProperties implements ValidatedProperties {

		private int maxItems = 10;

		public int getMaxItems() {
			return this.maxItems;
		}

		public void setMaxItems(int maxItems) {
			this.maxItems = maxItems;
		}

		@Override
		public void validate(PropertyChecks checks) {
			checks.atLeast("maxItems", this.maxItems, 1);
		}

	}

	public static class SecurityProperties {

		private String requiredRole = "USER";

		public String getRequiredRole() {
			return this.requiredRole;
		}

		public void setRequiredRole(String requiredRole) {
			this.requiredRole = requiredRole;
		}

	}

}
