package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.agent.AgentAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.thread.ThreadStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolIcon;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration;
import org.springframework.ai.mcp.server.common.autoconfigure.McpServerJsonMapperAutoConfiguration;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class AgentMcpServerAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				McpServerJsonMapperAutoConfiguration.class, AgentMcpServerAutoConfiguration.class))
		.withUserConfiguration(ToolsConfiguration.class);

	private final WebApplicationContextRunner webContextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				McpServerJsonMapperAutoConfiguration.class, AgentMcpServerAutoConfiguration.class))
		.withPropertyValues("spring.ai.mcp.server.protocol=STREAMABLE");

	@Test
	void publishesEveryToolAsAnAnnotatedToolSpecification() {
		this.contextRunner.run((context) -> {
			Map<String, McpSchema.Tool> tools = tools(context.getBean("agentMcpToolSpecifications", List.class));
			assertThat(tools).containsOnlyKeys("balance", "shout");
			McpSchema.Tool balance = tools.get("balance");
			assertThat(balance.title()).isEqualTo("Account balance");
			assertThat(balance.annotations().readOnlyHint()).isTrue();
			assertThat(balance.annotations().destructiveHint()).isFalse();
			assertThat(balance.annotations().openWorldHint()).isFalse();
			McpSchema.Tool shout = tools.get("shout");
			assertThat(shout.annotations().destructiveHint()).as("Spring AI declares no safety: dangerous").isTrue();
			assertThat(context.getBean(AgentToolRegistry.class).get("shout")).isNotNull();
		});
	}

	@Test
	void publishesTheIconsOfAgentToolWithMediaTypesTakenFromTheUriWhenNotGiven() {
		this.contextRunner.run((context) -> {
			Map<String, McpSchema.Tool> tools = tools(context.getBean("agentMcpToolSpecifications", List.class));
			assertThat(tools.get("balance").icons()).containsExactly(
					new McpSchema.Icon("https://bank.example/icons/balance.svg?v=2", "image/svg+xml", List.of("any"),
							null),
					new McpSchema.Icon("data:image/png;base64,iVBORw0KGgo=", "image/png", List.of("16x16", "32x32"),
							"dark"));
			assertThat(tools.get("shout").icons()).as("a Spring AI tool declares no icons").isNull();
		});
	}

	@Test
	void configuredIconsReplaceTheAnnotationsAndReachSpringAiToolsToo() {
		this.contextRunner
			.withPropertyValues("agent.middleware.mcp.tools.balance.icons[0].src=https://cdn.example/b",
					"agent.middleware.mcp.tools.balance.icons[0].mime-type=image/webp",
					"agent.middleware.mcp.tools.balance.icons[0].theme=light",
					"agent.middleware.mcp.tools.SHOUT.icons[0].src=https://cdn.example/shout.PNG",
					"agent.middleware.mcp.tools.SHOUT.icons[0].sizes=48x48",
					"agent.middleware.mcp.tools.SHOUT.icons[1].src=data:image/svg+xml;utf8,<svg width='9'/>")
			.run((context) -> {
				Map<String, McpSchema.Tool> tools = tools(context.getBean("agentMcpToolSpecifications", List.class));
				assertThat(tools.get("balance").icons())
					.containsExactly(new McpSchema.Icon("https://cdn.example/b", "image/webp", null, "light"));
				assertThat(tools.get("shout").icons()).containsExactly(
						new McpSchema.Icon("https://cdn.example/shout.PNG", "image/png", List.of("48x48"), null),
						new McpSchema.Icon("data:image/svg+xml;utf8,<svg width='9'/>", "image/svg+xml", null, null));
			});
	}

	@Test
	void iconsForAnUnknownToolFailStartupSuggestingTheName() {
		this.contextRunner
			.withPropertyValues("agent.middleware.mcp.tools.balanse.icons[0].src=https://cdn.example/b.png")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.mcp.tools.balanse")
					.hasMessageContaining("Did you mean 'balance'?");
			});
	}

	@Test
	void anIconThatIsNoWebOrDataUriFailsStartupNamingIt() {
		this.contextRunner.withPropertyValues("agent.middleware.mcp.tools.balance.icons[0].src=javascript:alert(1)")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.mcp.tools.balance.icons[0]")
					.hasMessageContaining("src must be an https:, http: or data: URI, was 'javascript:alert(1)'");
			});
		this.contextRunner
			.withPropertyValues("agent.middleware.mcp.tools.balance.icons[0].src=https://cdn.example/b.png",
					"agent.middleware.mcp.tools.balance.icons[0].sizes=big")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.mcp.tools.balance.icons[0]")
				.hasMessageContaining("a size must be WIDTHxHEIGHT (such as 48x48) or 'any', was 'big'"));
		this.contextRunner.withPropertyValues("agent.middleware.mcp.tools.balance.icons[0].sizes=any")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("agent.middleware.mcp.tools.balance.icons[0]")
				.hasMessageContaining("src must be set"));
		this.contextRunner.withPropertyValues("agent.middleware.mcp.tools.balance.icons[0].src=https:///no-host.png")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("src must be an https:, http: or data: URI, was 'https:///no-host.png'"));
	}

	@Test
	void anInvalidIconOfAnAgentToolFailsStartupNamingTheTool() {
		this.contextRunner.withUserConfiguration(BadIconConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure())).hasMessage(
					"@AgentTool(icons[0]) of tool 'ping': src must be an https:, http: or data: URI, was 'file:///etc/icon.png'");
		});
	}

	@Test
	void theTodoToolsJoinTheRegistryButNotTheMcpToolListByDefault() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(ThreadStoreAutoConfiguration.class, AgentAutoConfiguration.class))
			.run((context) -> {
				assertThat(context.getBean(AgentToolRegistry.class).find("write_todos")).isPresent();
				assertThat(tools(context.getBean("agentMcpToolSpecifications", List.class))).containsOnlyKeys("balance",
						"shout");
			});
	}

	@Test
	void whenAskedTheTodoToolsArePublishedWithTitlesAndHonestHints() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(ThreadStoreAutoConfiguration.class, AgentAutoConfiguration.class))
			.withPropertyValues("agent.middleware.todo.mcp.enabled=true")
			.run((context) -> {
				Map<String, McpSchema.Tool> tools = tools(context.getBean("agentMcpToolSpecifications", List.class));
				assertThat(tools).containsOnlyKeys("balance", "shout", "read_todos", "update_todo", "write_todos");
				assertThat(tools.get("read_todos").title()).isEqualTo("Read the todo list");
				assertThat(tools.get("write_todos").title()).isEqualTo("Write the todo list");
				assertThat(tools.get("update_todo").title()).isEqualTo("Update a todo item");
				McpSchema.ToolAnnotations read = tools.get("read_todos").annotations();
				assertThat(read.readOnlyHint()).isTrue();
				assertThat(read.destructiveHint()).isFalse();
				assertThat(read.idempotentHint()).isTrue();
				assertThat(read.openWorldHint()).isFalse();
				for (String writer : List.of("write_todos", "update_todo")) {
					McpSchema.ToolAnnotations annotations = tools.get(writer).annotations();
					assertThat(annotations.readOnlyHint()).as(writer).isFalse();
					assertThat(annotations.destructiveHint()).as(writer + ": only the session's own list").isFalse();
					assertThat(annotations.idempotentHint()).as(writer).isTrue();
					assertThat(annotations.openWorldHint()).as(writer).isFalse();
				}
			});
	}

	@Test
	void warnsNamingEachUngovernedToolWhenGovernanceIsOff(CapturedOutput output) {
		this.contextRunner.withPropertyValues("agent.middleware.mcp.govern-spring-ai-tools=false").run((context) -> {
			Map<String, McpSchema.Tool> tools = tools(context.getBean("agentMcpToolSpecifications", List.class));
			assertThat(tools).containsOnlyKeys("balance", "shout");
			assertThat(context.getBean(AgentToolRegistry.class).tools()).extracting((tool) -> tool.name())
				.containsExactly("balance");
			assertThat(output).contains("MCP tools published without the middleware chain").contains("shout");
		});
	}

	@Test
	void warnsNamingToolSpecificationsPublishedOutsideTheChain(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(HandMadeToolsConfiguration.class)
			.run((context) -> assertThat(output).contains("MCP tools published without the middleware chain")
				.contains("raw"));
	}

	@Test
	void servletAppGetsTheHardenedTransport() {
		this.webContextRunner.run((context) -> {
			assertThat(context).hasSingleBean(HardenedStreamableHttpTransport.class);
			assertThat(context).hasBean("webMvcStreamableServerRouterFunction");
		});
	}

	@Test
	void transportBacksOffWhenDisabled() {
		this.webContextRunner.withPropertyValues("agent.middleware.mcp.transport.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(HardenedStreamableHttpTransport.class));
	}

	@Test
	void transportNeedsTheStreamableProtocol() {
		this.webContextRunner.withPropertyValues("spring.ai.mcp.server.protocol=SSE")
			.run((context) -> assertThat(context).doesNotHaveBean(HardenedStreamableHttpTransport.class));
	}

	@Test
	void nothingWhenTheMcpServerIsDisabled() {
		this.webContextRunner.withPropertyValues("spring.ai.mcp.server.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(HardenedStreamableHttpTransport.class);
			assertThat(context).doesNotHaveBean("agentMcpToolSpecifications");
		});
	}

	@Test
	void advertisesOnlyToolsWhenTheApplicationServesNothingElse() {
		this.webContextRunner.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class))
			.withUserConfiguration(ToolsConfiguration.class)
			.run((context) -> {
				McpSchema.ServerCapabilities capabilities = context.getBean(McpSyncServer.class)
					.getServerCapabilities();
				assertThat(capabilities.tools()).isNotNull();
				assertThat(capabilities.resources()).isNull();
				assertThat(capabilities.prompts()).isNull();
				assertThat(capabilities.completions()).isNull();
			});
	}

	@Test
	void advertisesPromptsWhenTheApplicationDeclaresPromptSpecifications() {
		this.webContextRunner.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class))
			.withUserConfiguration(ToolsConfiguration.class, PromptsConfiguration.class)
			.run((context) -> {
				McpSyncServer server = context.getBean(McpSyncServer.class);
				assertThat(server.getServerCapabilities().prompts()).isNotNull();
				assertThat(server.listPrompts()).extracting(McpSchema.Prompt::name).containsExactly("greet");
				assertThat(server.getServerCapabilities().resources()).isNull();
			});
	}

	@Test
	void advertisesWhatTheApplicationSwitchesOnItself() {
		this.webContextRunner.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class))
			.withUserConfiguration(ToolsConfiguration.class)
			.withPropertyValues("spring.ai.mcp.server.capabilities.resource=true")
			.run((context) -> {
				McpSchema.ServerCapabilities capabilities = context.getBean(McpSyncServer.class)
					.getServerCapabilities();
				assertThat(capabilities.resources()).isNotNull();
				assertThat(capabilities.prompts()).isNull();
			});
	}

	@Test
	void advertisesResourcesWithoutSubscriptionsByDefault() {
		this.webContextRunner.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class))
			.withUserConfiguration(ToolsConfiguration.class, ResourcesConfiguration.class)
			.run((context) -> {
				McpSchema.ServerCapabilities capabilities = context.getBean(McpSyncServer.class)
					.getServerCapabilities();
				assertThat(capabilities.resources()).isNotNull();
				assertThat(capabilities.resources().subscribe()).isFalse();
			});
	}

	@Test
	void advertisesResourceSubscriptionsWhenSwitchedOn() {
		this.webContextRunner.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class))
			.withUserConfiguration(ToolsConfiguration.class, ResourcesConfiguration.class)
			.withPropertyValues("agent.middleware.mcp.resources.subscribe=true")
			.run((context) -> {
				McpSchema.ServerCapabilities capabilities = context.getBean(McpSyncServer.class)
					.getServerCapabilities();
				assertThat(capabilities.resources().subscribe()).isTrue();
				assertThat(context).hasSingleBean(McpResourceUpdates.class);
			});
	}

	@Test
	void resourceSubscriptionsNeedResourcesToAdvertise() {
		this.webContextRunner.withConfiguration(AutoConfigurations.of(McpServerAutoConfiguration.class))
			.withUserConfiguration(ToolsConfiguration.class)
			.withPropertyValues("agent.middleware.mcp.resources.subscribe=true")
			.run((context) -> assertThat(context.getBean(McpSyncServer.class).getServerCapabilities().resources())
				.isNull());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, McpSchema.Tool> tools(List<?> specifications) {
		return ((List<SyncToolSpecification>) specifications).stream()
			.collect(java.util.stream.Collectors.toMap((spec) -> spec.tool().name(), SyncToolSpecification::tool));
	}

	@Configuration(proxyBeanMethods = false)
	static class PromptsConfiguration {

		@Bean
		List<SyncPromptSpecification> prompts() {
			return List.of(new SyncPromptSpecification(new McpSchema.Prompt("greet", "Greets the user", List.of()),
					(exchange, request) -> new McpSchema.GetPromptResult("greeting", List.of())));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ResourcesConfiguration {

		@Bean
		List<SyncResourceSpecification> resources() {
			return List.of(new SyncResourceSpecification(
					McpSchema.Resource.builder().uri("prices://current").name("prices").build(),
					(exchange, request) -> new McpSchema.ReadResourceResult(List.of())));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ToolsConfiguration {

		@Bean
		AccountTools accountTools() {
			return new AccountTools();
		}

		@Bean
		ToolCallbackProvider shoutTools() {
			return MethodToolCallbackProvider.builder().toolObjects(new ShoutTools()).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HandMadeToolsConfiguration {

		@Bean
		List<SyncToolSpecification> handMadeTools() {
			return List.of(SyncToolSpecification.builder()
				.tool(McpSchema.Tool.builder().name("raw").inputSchema(Map.of("type", "object")).build())
				.callHandler((exchange, request) -> McpSchema.CallToolResult.builder().build())
				.build());
		}

	}

	public static class AccountTools {

		@AgentTool(title = "Account balance", description = "Balance of an account", safety = SafetyLevel.SAFE,
				readOnly = true, openWorld = false,
				icons = { @AgentToolIcon(src = "https://bank.example/icons/balance.svg?v=2", sizes = "any"),
						@AgentToolIcon(src = "data:image/png;base64,iVBORw0KGgo=", sizes = { "16x16", "32x32" },
								theme = AgentToolIcon.Theme.DARK) })
		public long balance(String account) {
			return 42;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadIconConfiguration {

		@Bean
		BadIconTools badIconTools() {
			return new BadIconTools();
		}

	}

	public static class BadIconTools {

		@AgentTool(description = "Pings", safety = SafetyLevel.SAFE, readOnly = true,
				icons = @AgentToolIcon(src = "file:///etc/icon.png"))
		public String ping() {
			return "pong";
		}

	}

	public static class ShoutTools {

		@Tool(description = "Shouts")
		public String shout(String text) {
			return text.toUpperCase(java.util.Locale.ROOT);
		}

	}

}
