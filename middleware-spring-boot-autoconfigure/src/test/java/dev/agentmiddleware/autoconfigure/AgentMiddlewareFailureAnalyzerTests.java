package dev.agentmiddleware.autoconfigure;

import java.util.Map;

import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.retry.ToolRetryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The "APPLICATION FAILED TO START" report of bad configuration, as a user sees it: a
 * real application started from a YAML file, its report read from the console.
 */
@ExtendWith(OutputCaptureExtension.class)
class AgentMiddlewareFailureAnalyzerTests {

	@Test
	void anUnknownToolNameIsReportedWithItsOriginAndASuggestion(CapturedOutput output) {
		String report = startAndReport("unknown-tool.yml", output);
		assertThat(report).contains("Property: agent.middleware.cache.tools.lookup-ordr")
			.contains("Value: \"2m\"")
			.contains("Origin: class path resource [failure-analysis/unknown-tool.yml] - 8:16"
					+ " (agent.middleware.cache.tools.lookup-ordr.ttl)")
			.contains("Reason: no tool is named 'lookup-ordr'")
			.contains("Action:")
			.contains("Did you mean 'lookup_order'? Registered tools: list_orders, lookup_order, refund_order.");
	}

	@Test
	void anUnknownFieldIsReportedWithItsOriginAndASuggestion(CapturedOutput output) {
		String report = startAndReport("unknown-field.yml", output);
		assertThat(report).contains("Property: agent.middleware.cache.tools.lookup-order.tll")
			.contains("Value: \"1m\"")
			.contains("Origin: class path resource [failure-analysis/unknown-field.yml] - 6:16")
			.contains("Reason: 'tll' is not a setting here")
			.contains("Did you mean 'ttl'? Settings of 'agent.middleware.cache.tools.lookup-order': enabled, "
					+ "max-size, scope, ttl.");
	}

	@Test
	void anUnknownBuiltInNameIsReportedWithItsOriginAndASuggestion(CapturedOutput output) {
		String report = startAndReport("unknown-built-in.yml", output);
		assertThat(report).contains("Property: agent.middleware.cahce")
			.contains("Origin: class path resource [failure-analysis/unknown-built-in.yml] - 6:16"
					+ " (agent.middleware.cahce.tools.lookup-order.ttl)")
			.contains("Reason: 'cahce' is not a key of the agent tool middleware, so it would configure nothing")
			.contains("Did you mean 'cache'? Keys under 'agent.middleware': ")
			.contains("rate-limit");
	}

	@Test
	void anInvalidValueIsReportedWithItsOrigin(CapturedOutput output) {
		String report = startAndReport("invalid-value.yml", output);
		assertThat(report).contains("Property: agent.middleware.retry.defaults.max-attempts")
			.contains("Value: \"0\"")
			.contains("Origin: class path resource [failure-analysis/invalid-value.yml] - 5:23")
			.contains("Reason: maxAttempts must be at least 1, was 0")
			.contains("Update 'agent.middleware.retry.defaults.max-attempts' in your application's configuration.");
	}

	@Test
	void anUnknownKeyOfASectionIsReportedWithItsOriginAndASuggestion(CapturedOutput output) {
		String report = startAndReport("unknown-approval-key.yml", output);
		assertThat(report).contains("Property: agent.middleware.approval.polcy")
			.contains("Value: \"all\"")
			.contains("Origin: class path resource [failure-analysis/unknown-approval-key.yml] - 4:14")
			.contains("Reason: 'polcy' is not a setting here")
			.contains("Did you mean 'policy'? Settings of 'agent.middleware.approval': ");
	}

	@Test
	void aNegativeLimitIsReportedWithItsOriginAndWhatIsAllowed(CapturedOutput output) {
		String report = startAndReport("invalid-loop-guard.yml", output);
		assertThat(report).contains("Property: agent.middleware.loop-guard.max-iterations")
			.contains("Value: \"-1\"")
			.contains("Origin: class path resource [failure-analysis/invalid-loop-guard.yml] - 4:23")
			.contains("Reason: must be 0 or more")
			.contains("Allowed: 0 or more.");
	}

	@Test
	void anUnknownToolInAListIsReportedAtItsIndexWithItsOrigin(CapturedOutput output) {
		String report = startAndReport("unknown-sensitive-tool.yml", output);
		assertThat(report).contains("Property: agent.middleware.approval.sensitive-tools[1]")
			.contains("Value: \"write_file\"")
			.contains("Origin: class path resource [failure-analysis/unknown-sensitive-tool.yml] - 7:11")
			.contains("Reason: no tool is named 'write_file'");
	}

	@Test
	void aRefusedToolIsReportedWithTheFix(CapturedOutput output) {
		String report = startAndReport("refused-tool.yml", output);
		assertThat(report).contains("Property: agent.middleware.cache.tools.refund-order")
			.contains("Origin: class path resource [failure-analysis/refused-tool.yml] - 6:16")
			.contains("Reason: tool 'refund_order' is not read-only")
			.contains("Set 'agent.middleware.cache.tools.refund-order.enabled' to true if that is really wanted, "
					+ "or remove the entry.");
	}

	@Test
	void aDeclaredInputSchemaThatDoesNotFitItsMethodIsReportedNamingToolParameterAndFix(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(ContactToolsApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.main.banner-mode=off", "agent.middleware.todo.enabled=false");
		assertThatException().isThrownBy(application::run);
		String text = output.getOut() + output.getErr();
		String report = text.substring(text.indexOf("APPLICATION FAILED TO START"));
		assertThat(report).contains("Invalid agent tool middleware configuration")
			.contains("Annotation: @AgentTool(inputSchema) of tool 'save_contact'")
			.contains("Value: \"classpath:schemas/contact-name-optional.json\"")
			.contains("Reason: the input schema of tool 'save_contact' (ContactTools.saveContact) does not fit the "
					+ "method: it does not list parameter 'name' under \"required\", which ContactTools.saveContact "
					+ "requires: expected a property 'name' listed under \"required\"")
			.contains("Add 'name' to the schema's properties and \"required\"");
	}

	private static String startAndReport(String file, CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(OrderToolsApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.config.location=classpath:failure-analysis/" + file, "spring.main.banner-mode=off",
					"agent.middleware.todo.enabled=false");
		assertThatException().isThrownBy(application::run);
		String text = output.getOut() + output.getErr();
		assertThat(text).contains("APPLICATION FAILED TO START")
			.contains("Invalid agent tool middleware configuration");
		return text.substring(text.indexOf("APPLICATION FAILED TO START"));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class,
			ToolCacheAutoConfiguration.class, ToolRetryAutoConfiguration.class, ApprovalAutoConfiguration.class,
			AgentAutoConfiguration.class, ThreadStoreAutoConfiguration.class })
	static class OrderToolsApplication {

		@Bean
		OrderTools orderTools() {
			return new OrderTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AgentMiddlewareAutoConfiguration.class, AgentToolAutoConfiguration.class })
	static class ContactToolsApplication {

		@Bean
		ContactTools contactTools() {
			return new ContactTools();
		}

	}

	public static class ContactTools {

		@AgentTool(inputSchema = "classpath:schemas/contact-name-optional.json")
		public String saveContact(String name, @AgentToolParam(required = false) Map<String, String> address) {
			return name;
		}

	}

	public static class OrderTools {

		@AgentTool(readOnly = true)
		public String lookupOrder(String id) {
			return id;
		}

		@AgentTool(readOnly = true)
		public String listOrders(String customer) {
			return customer;
		}

		@AgentTool
		public String refundOrder(String id) {
			return id;
		}

	}

}
