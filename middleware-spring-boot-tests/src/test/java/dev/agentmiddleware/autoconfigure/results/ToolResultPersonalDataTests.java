package dev.agentmiddleware.autoconfigure.results;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.logging.ToolLoggingAutoConfiguration;
import dev.agentmiddleware.autoconfigure.observation.ToolObservationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.results.PersonalDataDetector;
import dev.agentmiddleware.results.PhoneNumberDetector;
import dev.agentmiddleware.results.ResultGuardMiddleware;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.iban4j.IbanUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The personal-data result guard as configured under {@code agent.middleware.results}:
 * off by default, switched on for every tool or per tool, detectors selected and added,
 * the same masking in the logs, counted per tool and kind.
 */
@ExtendWith(OutputCaptureExtension.class)
class ToolResultPersonalDataTests {

	private static final String CUSTOMER = "Alice Smith, alice@example.com, +49 30 1234567, card 4111 1111 1111 1111,"
			+ " IBAN DE89 3704 0044 0532 0130 00";

	private static final String MASKED = "Alice Smith, [EMAIL], [PHONE], card [CARD ending 1111], IBAN [IBAN]";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
						AgentToolSpringAiAutoConfiguration.class, ToolResultAutoConfiguration.class))
		.withUserConfiguration(CustomerToolsConfiguration.class);

	@Test
	void personalDataIsLeftAloneUnlessSwitchedOn() {
		this.contextRunner.run((context) -> {
			assertThat(call(context, "find_customer")).isEqualTo(CUSTOMER);
			assertThat(context.getBean(ResultGuardMiddleware.class).policies().get("find_customer").personalData())
				.isEmpty();
			assertThat(context.getBean(ResultGuardMiddleware.class).personalDataDetectors()).containsOnlyKeys("email",
					"phone", "card", "iban");
		});
	}

	@Test
	void switchedOnForEveryToolItMasksEveryKindInTextAndStructuredResults() {
		this.contextRunner.withPropertyValues("agent.middleware.results.defaults.personal-data.enabled=true")
			.run((context) -> {
				assertThat(call(context, "find_customer")).isEqualTo(MASKED);
				assertThat(call(context, "customer_record"))
					.isEqualTo("{\"id\":7,\"name\":\"Alice Smith\",\"email\":\"[EMAIL]\",\"phones\":[\"[PHONE]\"],"
							+ "\"payment\":{\"card\":\"[CARD ending 1111]\",\"iban\":\"[IBAN]\"}}");
				assertThat(context.getBean(CustomerTools.class).customerRecord().email()).isEqualTo("[EMAIL]");
			});
	}

	@Test
	void switchedOnForOneToolOnlyThatToolsResultsAreMasked() {
		this.contextRunner.withPropertyValues("agent.middleware.results.tools.find-customer.personal-data.enabled=true")
			.run((context) -> {
				assertThat(call(context, "find_customer")).isEqualTo(MASKED);
				assertThat(call(context, "customer_record")).contains("alice@example.com", "4111 1111 1111 1111");
			});
	}

	@Test
	void aToolsDetectorsFallBackToTheDefaultsFieldByField() {
		this.contextRunner
			.withPropertyValues("agent.middleware.results.defaults.personal-data.enabled=true",
					"agent.middleware.results.tools.find-customer.personal-data.detectors=email,iban",
					"agent.middleware.results.tools.customer-record.personal-data.enabled=false")
			.run((context) -> {
				assertThat(context.getBean(ResultGuardMiddleware.class).policies().get("find_customer").personalData())
					.containsExactly("email", "iban");
				assertThat(call(context, "find_customer"))
					.isEqualTo("Alice Smith, [EMAIL], +49 30 1234567, card 4111 1111 1111 1111, IBAN [IBAN]");
				assertThat(call(context, "customer_record")).contains("alice@example.com");
			});
	}

	@Test
	void thePhoneRegionFindsNumbersWrittenWithoutACountryCode() {
		this.contextRunner
			.withPropertyValues("agent.middleware.results.defaults.personal-data.enabled=true",
					"agent.middleware.results.defaults.personal-data.detectors=phone")
			.run((context) -> assertThat(call(context, "office_phone"))
				.isEqualTo("office 030 1234567, order 4711-0815"));
		this.contextRunner
			.withPropertyValues("agent.middleware.results.defaults.personal-data.enabled=true",
					"agent.middleware.results.defaults.personal-data.detectors=phone",
					"agent.middleware.results.phone-region=DE")
			.run((context) -> assertThat(call(context, "office_phone")).isEqualTo("office [PHONE], order 4711-0815"));
	}

	@Test
	void thePhoneLeniencyIsConfigurable() {
		this.contextRunner
			.withPropertyValues("agent.middleware.results.phone-region=DE",
					"agent.middleware.results.phone-leniency=strict-grouping")
			.run((context) -> assertThat(context.getBean(PhoneNumberDetector.class))
				.hasToString("PhoneNumberDetector[defaultRegion=DE, leniency=STRICT_GROUPING]"));
	}

	@Test
	void anUnknownPhoneRegionFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.results.phone-region=XX").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.results.phone-region")
				.hasMessageContaining("'XX' is no region libphonenumber knows");
		});
	}

	@Test
	void anUnknownDetectorFailsStartupNamingThePropertyEvenWhenSwitchedOff() {
		this.contextRunner
			.withPropertyValues("agent.middleware.results.tools.find-customer.personal-data.detectors=email,pasport")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.results.tools.find-customer.personal-data.detectors")
					.hasMessageContaining("no personal data detector finds 'pasport'; the detectors find"
							+ " [card, email, iban, phone]");
			});
	}

	@Test
	void withoutLibphonenumberAndIban4jTheirDetectorsAreMissingAndNamingThemSaysWhatToAdd() {
		ApplicationContextRunner withoutLibraries = this.contextRunner
			.withClassLoader(new FilteredClassLoader(PhoneNumberUtil.class, IbanUtil.class));
		withoutLibraries.withPropertyValues("agent.middleware.results.defaults.personal-data.enabled=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.results.defaults.personal-data.detectors")
					.hasMessageContaining("no personal data detector finds 'phone'");
			});
		withoutLibraries
			.withPropertyValues("agent.middleware.results.defaults.personal-data.enabled=true",
					"agent.middleware.results.defaults.personal-data.detectors=email,card")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(PhoneNumberDetector.class);
				assertThat(call(context, "find_customer")).isEqualTo("Alice Smith, [EMAIL], +49 30 1234567, card"
						+ " [CARD ending 1111], IBAN DE89 3704 0044 0532 0130 00");
			});
	}

	@Test
	void aDetectorBeanOfYourOwnIsSelectedByItsKind() {
		this.contextRunner.withUserConfiguration(EmployeeIdConfiguration.class)
			.withPropertyValues("agent.middleware.results.defaults.personal-data.enabled=true",
					"agent.middleware.results.defaults.personal-data.detectors=email,employee-id")
			.run((context) -> assertThat(call(context, "employee")).isEqualTo("[EMPLOYEE-ID]: [EMAIL]"));
	}

	@Test
	void theLogsMaskTheSamePersonalDataInArgumentsAndResults(CapturedOutput output) {
		Logger callLog = (Logger) LoggerFactory.getLogger(LoggingMiddleware.DEFAULT_LOGGER_NAME);
		Level level = callLog.getLevel();
		callLog.setLevel(Level.DEBUG);
		try {
			this.contextRunner.withConfiguration(AutoConfigurations.of(ToolLoggingAutoConfiguration.class))
				.withPropertyValues("agent.middleware.results.tools.find-customer.personal-data.enabled=true")
				.run((context) -> {
					assertThat(context.getBean(AgentToolCallbackProvider.class).getToolCallbacks())
						.filteredOn((callback) -> callback.getToolDefinition().name().equals("find_customer"))
						.singleElement()
						.satisfies((callback) -> callback.call("{\"query\": \"bob@example.com or +49 30 7654321\"}"));
					assertThat(call(context, "customer_record")).contains("alice@example.com");
				});
		}
		finally {
			callLog.setLevel(level);
		}
		List<String> lines = output.getOut().lines().filter((line) -> line.contains("tool=find_customer")).toList();
		assertThat(lines).hasSize(2);
		assertThat(lines.get(0)).contains("args={query=\"[EMAIL] or [PHONE]\"}");
		assertThat(lines.get(1)).contains("result=\"" + MASKED + "\"");
		assertThat(String.join("\n", lines)).doesNotContain("bob@", "alice@", "7654321", "4111");
		assertThat(output.getOut()).contains("tool=customer_record").contains("alice@example.com");
	}

	@Test
	void eachMaskedValueIsCountedPerToolAndKind() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(ToolObservationAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("agent.middleware.results.defaults.personal-data.enabled=true")
			.run((context) -> {
				call(context, "find_customer");
				call(context, "find_customer");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				for (String kind : List.of("email", "phone", "card", "iban")) {
					assertThat(registry.get("agent.tool.results.personal.data")
						.tag("agent.tool.name", "find_customer")
						.tag("kind", kind)
						.counter()
						.count()).as(kind).isEqualTo(2.0);
				}
			});
	}

	private static String call(AssertableApplicationContext context, String name) {
		for (ToolCallback callback : context.getBean(AgentToolCallbackProvider.class).getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback.call("{}");
			}
		}
		throw new AssertionError("no tool " + name);
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomerToolsConfiguration {

		@Bean
		CustomerTools customerTools() {
			return new CustomerTools();
		}

	}

	public static class CustomerTools {

		@AgentTool(description = "Finds a customer", readOnly = true)
		public String findCustomer(@AgentToolParam(description = "What to look for", required = false) String query) {
			return CUSTOMER;
		}

		@AgentTool(description = "Reads a customer's record", readOnly = true)
		public CustomerRecord customerRecord() {
			return new CustomerRecord(7, "Alice Smith", "alice@example.com", List.of("+49 30 1234567"),
					new Payment("4111 1111 1111 1111", "DE89 3704 0044 0532 0130 00"));
		}

		@AgentTool(description = "Reads the office's phone number", readOnly = true)
		public String officePhone() {
			return "office 030 1234567, order 4711-0815";
		}

		@AgentTool(description = "Reads an employee", readOnly = true)
		public String employee() {
			return "EMP-123456: alice@example.com";
		}

	}

	public record CustomerRecord(long id, String name, String email, List<String> phones, Payment payment) {
	}

	public record Payment(String card, String iban) {
	}

	@Configuration(proxyBeanMethods = false)
	static class EmployeeIdConfiguration {

		@Bean
		PersonalDataDetector employeeIdDetector() {
			return new PersonalDataDetector() {

				@Override
				public String kind() {
					return "employee-id";
				}

				@Override
				public List<Match> find(String text) {
					return java.util.regex.Pattern.compile("\\bEMP-\\d{6}\\b")
						.matcher(text)
						.results()
						.map((found) -> new Match(found.start(), found.end()))
						.toList();
				}

			};
		}

	}

}
