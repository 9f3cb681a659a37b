package dev.agentmiddleware.autoconfigure.tool;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.audit.AuditQuery;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import dev.agentmiddleware.autoconfigure.observation.ToolObservationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.SamplingResult;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolClientUnavailableException;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolProgress;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An {@code @AgentTool} method that declares a {@link ToolClient} parameter gets the
 * client of its call there: not one of the tool's arguments (beside a
 * {@link ToolProgress} or not), the application log for a caller without an MCP client (a
 * Java caller passing {@code null}, a Spring AI caller), and the client a Java caller
 * passed.
 */
class ToolClientParameterTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class))
		.withUserConfiguration(BookingConfiguration.class);

	@Test
	void clientAndProgressParametersAreNotAmongTheToolsArguments() {
		this.contextRunner.run((context) -> {
			RegisteredTool tool = context.getBean(AgentToolRegistry.class).get("book_table");
			JsonNode schema = new JsonMapper().readTree(tool.descriptor().inputSchema());
			assertThat(schema.get("properties").propertyNames()).containsExactly("restaurant", "people");
			assertThat(tool.bind("{\"restaurant\":\"Chez Léon\",\"people\":2}")).containsOnlyKeys("restaurant",
					"people");
		});
	}

	@Test
	void javaCallerThatPassesNoClientGetsTheApplicationLogWhichCannotElicit() {
		this.contextRunner.run((context) -> assertApplicationLog(context.getBean(BookingTools.class)));
	}

	@Test
	void javaCallerGetsTheSameThroughAPipelineThatRunsMiddleware() {
		this.contextRunner.withUserConfiguration(MiddlewareConfiguration.class)
			.run((context) -> assertApplicationLog(context.getBean(BookingTools.class)));
	}

	private static void assertApplicationLog(BookingTools tools) {
		assertThat(tools.bookTable("Chez Léon", null, ToolProgress.NONE, 2))
			.isEqualTo("unavailable: Tool 'book_table' cannot ask its client for elicitation: the call has no MCP "
					+ "client to ask its user (a Java or ChatClient call)");
		assertThat(tools.given()).singleElement().satisfies((client) -> assertThat(client.canElicit()).isFalse());
	}

	@Test
	void javaCallerThatPassesAClientGetsTheToolsRequestsThroughAPipeline() {
		this.contextRunner.withUserConfiguration(MiddlewareConfiguration.class).run((context) -> {
			RecordingClient mine = new RecordingClient();
			assertThat(context.getBean(BookingTools.class).bookTable("Chez Léon", mine, null, 2))
				.isEqualTo("accept for 2");
			assertThat(mine.logged).containsExactly("INFO booking at Chez Léon");
			assertThat(mine.asked).containsExactly("How many people?");
			assertThat(context.getBean(SeenClients.class).clients).containsExactly(mine);
		});
	}

	@Test
	void eachRequestOfTheToolIsObservedUnderItsCallAndListedInItsAuditRecord() {
		TestObservationRegistry observations = TestObservationRegistry.create();
		this.contextRunner
			.withConfiguration(
					AutoConfigurations.of(ToolObservationAutoConfiguration.class, AuditAutoConfiguration.class))
			.withBean(TestObservationRegistry.class, () -> observations)
			.run((context) -> {
				BookingTools tools = context.getBean(BookingTools.class);
				assertThat(tools.bookTable("Chez Léon", new RecordingClient(), null, 2)).isEqualTo("accept for 2");
				assertThat(tools.bookTable("Chez Léon", null, null, 2)).startsWith("unavailable: ");
				AuditStore store = context.getBean(AuditStore.class);
				await().until(() -> store.find(AuditQuery.all()).size() == 2);
				assertThat(store.find(AuditQuery.all())).extracting(AuditRecord::clientRequests)
					.extracting((requests) -> requests.stream()
						.map((request) -> request.kind().tagValue() + ":" + request.outcome().tagValue())
						.toList())
					.containsExactly(List.of("elicitation:unavailable"), List.of("elicitation:accept"));
				TestObservationRegistryAssert.assertThat(observations)
					.hasNumberOfObservationsWithNameEqualTo("agent.tool.call", 2)
					.hasNumberOfObservationsWithNameEqualTo("agent.tool.client.request", 2)
					.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
						.filteredOn((observed) -> "agent.tool.client.request".equals(observed.getName()))
						.allSatisfy((request) -> assertThat(request.getParentObservation())
							.extracting((parent) -> parent.getContextView().getName())
							.isEqualTo("agent.tool.call"))
						.extracting((request) -> request.getLowCardinalityKeyValue("agent.tool.client.request.outcome")
							.getValue())
						.containsExactly("accept", "unavailable"));
			});
	}

	@Test
	void springAiCallerGetsTheApplicationLog() {
		this.contextRunner.withUserConfiguration(MiddlewareConfiguration.class).run((context) -> {
			ToolCallback callback = List.of(context.getBean(AgentToolCallbackProvider.class).getToolCallbacks())
				.stream()
				.filter((candidate) -> candidate.getToolDefinition().name().equals("book_table"))
				.findFirst()
				.orElseThrow();
			assertThat(callback.call("{\"restaurant\":\"Chez Léon\",\"people\":2}")).contains("unavailable: ");
			assertThat(context.getBean(SeenClients.class).clients).containsExactly((ToolClient) null);
		});
	}

	@Test
	void constraintOfAnArgumentAfterTheClientAndTheProgressNamesThatArgument() {
		this.contextRunner.withUserConfiguration(CopyConfiguration.class).run((context) -> {
			RegisteredTool tool = context.getBean(AgentToolRegistry.class).get("copy");
			assertThat(tool.bind("{\"path\":\"a\",\"copies\":2}")).containsEntry("copies", 2);
			assertThatExceptionOfType(InvalidToolArgumentsException.class)
				.isThrownBy(() -> tool.bind("{\"path\":\"a\",\"copies\":0}"))
				.withMessageContaining("parameter 'copies'")
				.withMessageContaining("must be greater than or equal to 1");
		});
	}

	@Test
	void methodWithTwoClientParametersFailsStartup() {
		this.contextRunner.withUserConfiguration(TwiceConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("TwiceTools.copy")
				.hasMessageContaining("declares more than one ToolClient parameter");
		});
	}

	static class BookingTools {

		private final List<ToolClient> given = new CopyOnWriteArrayList<>();

		// What each call was given (the bean is a proxy: its fields are read through a
		// method)
		List<ToolClient> given() {
			return this.given;
		}

		@AgentTool(description = "Books a table", safety = SafetyLevel.SAFE)
		public String bookTable(@AgentToolParam(description = "The restaurant") String restaurant,
				@Nullable ToolClient client, @Nullable ToolProgress progress,
				@AgentToolParam(description = "How many people") int people) {
			this.given.add(client);
			client.log(ToolClient.Level.INFO, "booking at " + restaurant);
			try {
				ElicitationResult answer = client.elicit(ElicitationRequest.builder("How many people?").build());
				return answer.action().name().toLowerCase(Locale.ROOT) + " for " + people;
			}
			catch (ToolClientUnavailableException ex) {
				return "unavailable: " + ex.getMessage();
			}
		}

	}

	static class RecordingClient implements ToolClient {

		final List<String> logged = new CopyOnWriteArrayList<>();

		final List<String> asked = new CopyOnWriteArrayList<>();

		@Override
		public void log(Level level, String message) {
			this.logged.add(level + " " + message);
		}

		@Override
		public boolean canElicit() {
			return true;
		}

		@Override
		public ElicitationResult elicit(ElicitationRequest request) {
			this.asked.add(request.message());
			return new ElicitationResult(ElicitationResult.Action.ACCEPT, Map.of());
		}

		@Override
		public boolean canSample() {
			return false;
		}

		@Override
		public SamplingResult sample(SamplingRequest request) {
			throw new ToolClientUnavailableException("book_table", "sampling", "not this one");
		}

	}

	static class TwiceTools {

		@AgentTool(description = "Copies", safety = SafetyLevel.SAFE)
		public String copy(ToolClient first, String path, ToolClient second) {
			return path;
		}

	}

	static class CopyTools {

		@AgentTool(description = "Copies", safety = SafetyLevel.SAFE)
		public int copy(@AgentToolParam(description = "What to copy") String path, ToolClient client,
				ToolProgress progress, @AgentToolParam(description = "How many copies") @Min(1) int copies) {
			return copies;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CopyConfiguration {

		@Bean
		CopyTools copyTools() {
			return new CopyTools();
		}

		@Bean
		Validator validator() {
			return Validation.buildDefaultValidatorFactory().getValidator();
		}

	}

	static class SeenClients {

		final List<@Nullable ToolClient> clients = new CopyOnWriteArrayList<>();

	}

	@Configuration(proxyBeanMethods = false)
	static class BookingConfiguration {

		@Bean
		BookingTools bookingTools() {
			return new BookingTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwiceConfiguration {

		@Bean
		TwiceTools twiceTools() {
			return new TwiceTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MiddlewareConfiguration {

		@Bean
		SeenClients seenClients() {
			return new SeenClients();
		}

		@Bean
		ToolMiddleware seeingMiddleware(SeenClients seen) {
			return (tool, next) -> (invocation) -> {
				seen.clients.add(invocation.attribute(ToolClient.ATTRIBUTE));
				return next.handle(invocation);
			};
		}

	}

}
