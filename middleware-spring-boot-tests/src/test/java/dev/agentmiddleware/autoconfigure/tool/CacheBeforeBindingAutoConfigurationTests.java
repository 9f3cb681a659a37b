package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.UnboundArguments;
import jakarta.validation.constraints.NotBlank;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which calls the cache may answer before binding them: those of tools whose binding is a
 * function of the arguments as sent; a tool whose calls a validator checks is bound and
 * checked on every call, hits too.
 */
class CacheBeforeBindingAutoConfigurationTests {

	private static final String TRIP = "{\"trip\":{\"from\":\"Lisbon\",\"to\":\"Porto\",\"stops\":[\"Obidos\"]}}";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				ToolCacheAutoConfiguration.class, JdbcStoresAutoConfiguration.class))
		.withBean(TripTools.class);

	private final ToolContext session = new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s1"));

	@Test
	void aToolWithoutConstraintsCarriesItsArgumentsAsSentAndOneWithConstraintsDoesNot() {
		this.contextRunner.withBean(LocalValidatorFactoryBean.class).run((context) -> {
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(asSent(registry.get("plan_trip"), TRIP)).isEqualTo(TRIP);
			assertThat(asSent(registry.get("find_hotel"), "{\"city\":\"Porto\"}")).isNull();
		});
	}

	@Test
	void repeatedCallsOfEitherToolAreAnsweredFromTheCacheAndInvalidOnesAreRefusedEveryTime() {
		this.contextRunner.withBean(LocalValidatorFactoryBean.class).run((context) -> {
			ToolCallback planTrip = callback(context, "plan_trip");
			ToolCallback findHotel = callback(context, "find_hotel");
			for (int i = 0; i < 4; i++) {
				assertThat(planTrip.call(TRIP, this.session)).isEqualTo("Lisbon to Porto via 1 stops #1");
				assertThat(findHotel.call("{\"city\":\"Porto\"}", this.session)).isEqualTo("hotel in Porto #2");
				assertThat(findHotel.call("{\"city\":\" \"}", this.session))
					.isEqualTo("Invalid arguments for tool 'find_hotel', parameter 'city': must not be blank");
				assertThat(planTrip.call("{\"trip\":{\"from\":\"Lisbon\",\"speed\":3}}", this.session))
					.contains("Invalid arguments for tool 'plan_trip', parameter 'trip'");
			}
			assertThat(context.getBean(TripTools.class).runs()).isEqualTo(2);
		});
	}

	@Test
	void aValidatorThatChecksAToolSeesEveryCallAndCanRefuseArgumentsItsCacheHolds() {
		CheckingValidator validator = new CheckingValidator();
		this.contextRunner.withBean(ToolArgumentValidator.class, () -> validator).run((context) -> {
			ToolCallback findHotel = callback(context, "find_hotel");
			ToolCallback planTrip = callback(context, "plan_trip");
			for (int i = 0; i < 3; i++) {
				assertThat(findHotel.call("{\"city\":\"Porto\"}", this.session)).isEqualTo("hotel in Porto #1");
				assertThat(planTrip.call(TRIP, this.session)).isEqualTo("Lisbon to Porto via 1 stops #2");
			}
			assertThat(validator.findHotelChecks).as("every call").hasValue(3);
			assertThat(validator.planTripChecks).as("the miss and the first hit").hasValue(2);
			validator.refuse.set(true);
			assertThat(findHotel.call("{\"city\":\"Porto\"}", this.session))
				.isEqualTo("Invalid arguments for tool 'find_hotel', parameter 'city': is no longer open");
		});
	}

	private static @Nullable Object asSent(RegisteredTool tool, String json) {
		UnboundArguments unbound = tool.unboundInvocation(json).build().attribute(UnboundArguments.ATTRIBUTE);
		assertThat(unbound).isNotNull();
		return unbound.asSent();
	}

	private static ToolCallback callback(ApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new IllegalStateException("No tool " + name);
	}

	/**
	 * Checks {@code find_hotel} only, counting what it sees, and refuses once told to.
	 */
	static class CheckingValidator implements ToolArgumentValidator {

		final AtomicInteger findHotelChecks = new AtomicInteger();

		final AtomicInteger planTripChecks = new AtomicInteger();

		final AtomicBoolean refuse = new AtomicBoolean();

		@Override
		public void validate(RegisteredTool tool, Object target, Map<String, @Nullable Object> arguments) {
			if (tool.name().equals("plan_trip")) {
				this.planTripChecks.incrementAndGet();
				return;
			}
			this.findHotelChecks.incrementAndGet();
			if (this.refuse.get()) {
				throw new InvalidToolArgumentsException(tool.name(), "city", "is no longer open");
			}
		}

		@Override
		public boolean checks(RegisteredTool tool, Object target) {
			return tool.name().equals("find_hotel");
		}

	}

	/**
	 * A tool with a structured argument and no constraints, and one with a constrained
	 * parameter.
	 */
	public static class TripTools {

		private final AtomicInteger runs = new AtomicInteger();

		public int runs() {
			return this.runs.get();
		}

		@AgentTool(description = "Plans a trip", safety = SafetyLevel.SAFE, readOnly = true)
		public String planTrip(Trip trip) {
			return trip.from() + " to " + trip.to() + " via " + trip.stops().size() + " stops #"
					+ this.runs.incrementAndGet();
		}

		@AgentTool(description = "Finds a hotel", safety = SafetyLevel.SAFE, readOnly = true)
		public String findHotel(@NotBlank String city) {
			return "hotel in " + city + " #" + this.runs.incrementAndGet();
		}

	}

	/**
	 * A trip.
	 *
	 * @param from where it starts
	 * @param to where it ends
	 * @param stops the stops on the way
	 */
	public record Trip(String from, String to, List<String> stops) {
	}

}
