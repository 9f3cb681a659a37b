package dev.agentmiddleware.autoconfigure.tool;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolProgress;
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

/**
 * An {@code @AgentTool} method that declares a {@link ToolProgress} parameter gets the
 * progress of its call there: not one of the tool's arguments, {@link ToolProgress#NONE}
 * for a caller that asked for none, and a reporter, bounded in rate and ending with the
 * last report, of the progress a Java caller passed.
 */
class ToolProgressParameterTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class))
		.withUserConfiguration(ImportConfiguration.class);

	@Test
	void progressParameterIsNotOneOfTheToolsArguments() {
		this.contextRunner.run((context) -> {
			RegisteredTool tool = context.getBean(AgentToolRegistry.class).get("import_rows");
			JsonNode schema = new JsonMapper().readTree(tool.descriptor().inputSchema());
			assertThat(schema.get("properties").propertyNames()).containsExactly("rows");
			assertThat(schema.get("required").valueStream().map(JsonNode::asString)).containsExactly("rows");
			assertThat(tool.bind("{\"rows\":2}")).containsOnlyKeys("rows");
		});
	}

	@Test
	void javaCallerThatPassesNoProgressGetsNone() {
		this.contextRunner.run((context) -> {
			ImportTools tools = context.getBean(ImportTools.class);
			assertThat(tools.importRows(2, null)).isEqualTo(2);
			assertThat(tools.given()).containsExactly(ToolProgress.NONE);
		});
	}

	@Test
	void javaCallerThatPassesAProgressGetsTheFirstReportAndTheLastBeforeTheResult() {
		this.contextRunner.run((context) -> assertJavaCallerGetsFirstAndLastReport(context.getBean(ImportTools.class)));
	}

	@Test
	void javaCallerGetsTheSameThroughAPipelineThatRunsMiddleware() {
		this.contextRunner.withUserConfiguration(MiddlewareConfiguration.class).run((context) -> {
			assertJavaCallerGetsFirstAndLastReport(context.getBean(ImportTools.class));
			assertThat(context.getBean(SeenTargets.class).targets).hasSize(1).doesNotContainNull();
		});
	}

	private static void assertJavaCallerGetsFirstAndLastReport(ImportTools tools) {
		List<String> reports = new CopyOnWriteArrayList<>();
		ToolProgress mine = (progress, total, message) -> reports.add(progress + "/" + total + " " + message);
		assertThat(tools.importRows(3, mine)).isEqualTo(3);
		// Three reports in a row: the first is sent, the next two come sooner than the
		// five-second interval, so the
		// third takes the second's place and is sent when the method returns, before the
		// result
		assertThat(reports).containsExactly("1.0/3.0 imported 1 of 3 rows", "3.0/3.0 imported 3 of 3 rows");
		assertThat(tools.given()).singleElement().isNotSameAs(mine).isInstanceOf(ProgressTarget.Reporter.class);
	}

	@Test
	void springAiCallerGetsNone() {
		this.contextRunner.withUserConfiguration(MiddlewareConfiguration.class).run((context) -> {
			ToolCallback callback = List.of(context.getBean(AgentToolCallbackProvider.class).getToolCallbacks())
				.stream()
				.filter((candidate) -> candidate.getToolDefinition().name().equals("import_rows"))
				.findFirst()
				.orElseThrow();
			assertThat(callback.call("{\"rows\":1}")).isEqualTo("1");
			assertThat(context.getBean(ImportTools.class).given()).containsExactly(ToolProgress.NONE);
			assertThat(context.getBean(SeenTargets.class).targets).containsExactly((ProgressTarget) null);
		});
	}

	@Test
	void constraintOfAnArgumentAfterTheProgressNamesThatArgument() {
		this.contextRunner.withUserConfiguration(CopyConfiguration.class).run((context) -> {
			RegisteredTool tool = context.getBean(AgentToolRegistry.class).get("copy");
			assertThat(tool.bind("{\"copies\":2}")).containsEntry("copies", 2);
			assertThatExceptionOfType(InvalidToolArgumentsException.class).isThrownBy(() -> tool.bind("{\"copies\":0}"))
				.withMessageContaining("parameter 'copies'")
				.withMessageContaining("must be greater than or equal to 1");
		});
	}

	@Test
	void methodWithTwoProgressParametersFailsStartup() {
		this.contextRunner.withUserConfiguration(TwiceConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("TwiceTools.copy")
				.hasMessageContaining("declares more than one ToolProgress parameter");
		});
	}

	static class ImportTools {

		private final List<ToolProgress> given = new CopyOnWriteArrayList<>();

		// What each call was given (the bean is a proxy: its fields are read through a
		// method)
		List<ToolProgress> given() {
			return this.given;
		}

		@AgentTool(description = "Imports rows", safety = SafetyLevel.SAFE)
		public int importRows(@AgentToolParam(description = "How many rows") int rows,
				@Nullable ToolProgress progress) {
			this.given.add(progress);
			for (int i = 1; i <= rows; i++) {
				progress.report(i, rows, "imported " + i + " of " + rows + " rows");
			}
			return rows;
		}

	}

	static class TwiceTools {

		@AgentTool(description = "Copies", safety = SafetyLevel.SAFE)
		public String copy(ToolProgress first, String path, ToolProgress second) {
			return path;
		}

	}

	static class CopyTools {

		@AgentTool(description = "Copies", safety = SafetyLevel.SAFE)
		public int copy(ToolProgress progress, @AgentToolParam(description = "How many copies") @Min(1) int copies) {
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

	static class SeenTargets {

		final List<@Nullable ProgressTarget> targets = new CopyOnWriteArrayList<>();

	}

	@Configuration(proxyBeanMethods = false)
	static class ImportConfiguration {

		@Bean
		ImportTools importTools() {
			return new ImportTools();
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
		SeenTargets seenTargets() {
			return new SeenTargets();
		}

		@Bean
		ToolMiddleware seeingMiddleware(SeenTargets seen) {
			return (tool, next) -> (invocation) -> {
				seen.targets.add(invocation.attribute(ProgressTarget.ATTRIBUTE));
				return next.handle(invocation);
			};
		}

	}

}
