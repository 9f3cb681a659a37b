package dev.agentmiddleware.readme;

import dev.agentmiddleware.autoconfigure.mcp.McpApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.cache.ToolCacheAutoConfiguration;
import dev.agentmiddleware.autoconfigure.learning.LearningAutoConfiguration;
import dev.agentmiddleware.autoconfigure.logging.ToolLoggingAutoConfiguration;
import dev.agentmiddleware.autoconfigure.mcp.AgentMcpServerAutoConfiguration;
import dev.agentmiddleware.autoconfigure.observation.ToolObservationAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ratelimit.ToolRateLimitAutoConfiguration;
import dev.agentmiddleware.autoconfigure.recovery.CrashRecoveryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.results.ToolResultAutoConfiguration;
import dev.agentmiddleware.autoconfigure.retry.ToolRetryAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentChatClientAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.timeout.ToolTimeoutAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code ```yaml} block of every README binds and starts an application context
 * with every auto-configuration of this module and the tools the block names (each a
 * read-only, idempotent tool, so that every built-in may apply to it). Configuration is
 * strict, so a key or value the code does not accept fails the block's test. The sample's
 * README shows the {@code agent.middleware} block of the first document of its
 * {@code application.yml}; the two must be equal.
 */
class ReadmeYamlTests {

	private static final Pattern TOOLS_KEY = Pattern.compile("^agent\\.middleware\\.[a-z-]+\\.tools\\.([^.\\[]+)\\..*");

	private static final Pattern TOOL_LIST = Pattern.compile("^agent\\.middleware\\.[a-z.-]+-tools(\\[\\d+])?$");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentMiddlewareEndpointAutoConfiguration.class, AgentAutoConfiguration.class,
				ApprovalAutoConfiguration.class, JdbcStoresAutoConfiguration.class, ApprovalWebAutoConfiguration.class,
				McpApprovalAutoConfiguration.class, ToolCacheAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				CrashRecoveryAutoConfiguration.class, LearningAutoConfiguration.class,
				ToolLoggingAutoConfiguration.class, ToolObservationAutoConfiguration.class,
				ToolRateLimitAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				RedisRateLimiterStoreAutoConfiguration.class, ToolRetryAutoConfiguration.class,
				ThreadStoreAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				ToolTimeoutAutoConfiguration.class, AgentChatClientAutoConfiguration.class,
				AgentToolSpringAiAutoConfiguration.class, AgentMcpServerAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ToolResultAutoConfiguration.class, DataRedisAutoConfiguration.class));

	@TestFactory
	Stream<DynamicTest> everyYamlBlockOfEveryReadmeStartsAContextWithTheToolsItNames() {
		List<DynamicTest> tests = new ArrayList<>();
		for (Readme readme : Readme.all()) {
			for (Readme.Block block : readme.blocks("yaml")) {
				tests.add(DynamicTest.dynamicTest(block.toString(), () -> {
					Map<String, Object> properties = properties(block.toString(), block.text());
					assertThat(properties).as("properties of %s", block).isNotEmpty();
					Set<String> tools = toolsNamed(properties);
					this.contextRunner
						.withInitializer((context) -> context.getEnvironment()
							.getPropertySources()
							.addFirst(yaml(block.toString(), block.text())))
						.withBean("readmeTools", AgentToolContributor.class,
								() -> (registry) -> register(registry, tools))
						.run((context) -> {
							assertThat(context).as("%s", block).hasNotFailed();
							AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
							tools.forEach((tool) -> assertThat(registry.find(tool)).as(tool).isPresent());
						});
				}));
			}
		}
		assertThat(tests).as("YAML blocks of the READMEs").hasSizeGreaterThanOrEqualTo(4);
		return tests.stream();
	}

	@Test
	void theSampleReadmeShowsTheMiddlewareBlockOfTheFirstDocumentOfTheSamplesConfiguration() throws IOException {
		Readme sample = Readme.all()
			.stream()
			.filter((readme) -> readme.name().startsWith("sample-app"))
			.findFirst()
			.orElseThrow();
		List<Readme.Block> blocks = sample.blocks("yaml");
		assertThat(blocks).hasSize(1);
		Path applicationYml = Path.of(sample.name()).getParent().resolve("src/main/resources/application.yml");
		Path file = projectFile(applicationYml);
		// The first document: the README's block is its agent.middleware block.
		Map<String, Object> configured = middleware(
				properties(documents(file.toString(), Files.readString(file)).get(0)));
		assertThat(middleware(properties("sample README", blocks.get(0).text()))).isEqualTo(configured);
	}

	private static Path projectFile(Path relative) {
		Path directory = Path.of("").toAbsolutePath();
		while (!Files.isRegularFile(directory.resolve("mvnw"))) {
			directory = directory.getParent();
		}
		return directory.resolve(relative);
	}

	private static Map<String, Object> middleware(Map<String, Object> properties) {
		Map<String, Object> middleware = new LinkedHashMap<>();
		properties.forEach((name, value) -> {
			if (name.startsWith("agent.middleware.")) {
				middleware.put(name, String.valueOf(value));
			}
		});
		return middleware;
	}

	// The tool names a block configures: keys under any 'tools.<name>' and the elements
	// of any '...-tools' list.
	private static Set<String> toolsNamed(Map<String, Object> properties) {
		Set<String> tools = new TreeSet<>();
		properties.forEach((name, value) -> {
			Matcher key = TOOLS_KEY.matcher(name);
			if (key.matches()) {
				tools.add(key.group(1).replace('-', '_'));
			}
			if (TOOL_LIST.matcher(name).matches()) {
				for (String tool : String.valueOf(value).split(",")) {
					if (!tool.isBlank()) {
						tools.add(tool.strip());
					}
				}
			}
		});
		return tools;
	}

	private static void register(AgentToolRegistry registry, Set<String> tools) {
		for (String name : tools) {
			ToolDescriptor descriptor = ToolDescriptor.builder(name)
				.description("Tool '" + name + "' that a README block configures")
				.safety(SafetyLevel.SAFE)
				.readOnly(true)
				.idempotent(true)
				.build();
			registry.register(new ExecutableTool(descriptor, (invocation) -> name), "README");
		}
	}

	private static Map<String, Object> properties(String name, String yaml) {
		return properties(yaml(name, yaml));
	}

	private static Map<String, Object> properties(PropertySource<?> document) {
		Map<String, Object> properties = new LinkedHashMap<>();
		EnumerablePropertySource<?> source = (EnumerablePropertySource<?>) document;
		for (String property : source.getPropertyNames()) {
			properties.put(property, source.getProperty(property));
		}
		return properties;
	}

	private static PropertySource<?> yaml(String name, String yaml) {
		List<PropertySource<?>> documents = documents(name, yaml);
		assertThat(documents).as("YAML documents of %s", name).hasSize(1);
		return documents.get(0);
	}

	private static List<PropertySource<?>> documents(String name, String yaml) {
		try {
			return new YamlPropertySourceLoader().load(name,
					new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8), name));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
