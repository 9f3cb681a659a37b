package dev.agentmiddleware.autoconfigure.approval;

import dev.agentmiddleware.autoconfigure.mcp.McpApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.mcp.McpUrlElicitationApprovalProvider;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalController;
import dev.agentmiddleware.autoconfigure.mcp.McpInvocationAttributes;
import dev.agentmiddleware.autoconfigure.mcp.ScriptedMcpClient;
import java.security.Principal;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.tool.InvocationSource;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approval by link in a real servlet application context: on by default beside the queue,
 * it sends the calling MCP client the console page of its request, and the decision comes
 * from the console (the controller bean), after which the client is told the elicitation
 * is complete.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApprovalLinkAutoConfigurationTests {

	private final BlockingQueue<McpSchema.ElicitUrlRequest> links = new LinkedBlockingQueue<>();

	private final ScriptedMcpClient client = new ScriptedMcpClient((request) -> {
		this.links.add((McpSchema.ElicitUrlRequest) request);
		return Mono.just(new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, null));
	});

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, ApprovalAutoConfiguration.class, JdbcStoresAutoConfiguration.class,
				ApprovalWebAutoConfiguration.class, McpApprovalAutoConfiguration.class))
		.withUserConfiguration(ApprovalAutoConfigurationTests.FileToolsConfiguration.class)
		.withBean(McpServerTransportProviderBase.class, this.client::transport);

	private final ExecutorService caller = Executors.newSingleThreadExecutor();

	@AfterEach
	void stopCaller() {
		this.caller.shutdownNow();
	}

	@Test
	void isOnByDefaultBeforeTheQueueAndStartupSaysSo(CapturedOutput output) {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(McpUrlElicitationApprovalProvider.class));
		assertThat(output).contains("Approval providers, first that can handle a call asks: link, queue (link: MCP "
				+ "clients with URL elicitation get a link to the request in the console)");
	}

	@Test
	void theClientGetsTheLinkTheApproverDecidesInTheConsoleAndTheClientIsToldItIsComplete() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.web.public-url=https://agents.example.com/")
			.run((context) -> {
				RegisteredTool deleteFile = context.getBean(AgentToolRegistry.class).get("delete_file");
				CompletableFuture<Object> call = CompletableFuture.supplyAsync(() -> {
					try {
						return deleteFile.pipeline()
							.call(deleteFile.unboundInvocation(Map.of("path", "notes.txt"))
								.source(InvocationSource.MCP)
								.sessionId("session-1")
								.attribute(McpInvocationAttributes.EXCHANGE,
										this.client.exchange(ScriptedMcpClient.urlElicitation(),
												ScriptedMcpClient.reachedUnder("http://10.0.0.7:8080")))
								.build());
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}, this.caller);
				McpSchema.ElicitUrlRequest link = this.links.poll(10, TimeUnit.SECONDS);
				assertThat(link).as("the link").isNotNull();
				String id = link.elicitationId();
				assertThat(link.url()).isEqualTo("https://agents.example.com/agent/approvals/console/requests/" + id);

				ApprovalController console = context.getBean(ApprovalController.class);
				ResponseEntity<String> page = console.consoleOfRequest(id);
				assertThat(page.getStatusCode().value()).isEqualTo(200);
				assertThat(page.getBody()).contains("const only = \"" + id + "\";");
				assertThat(call).isNotDone();

				Principal carol = () -> "carol";
				assertThat(console.approve(id, carol).getStatusCode().value()).isEqualTo(200);
				assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("deleted notes.txt");
				assertThat(this.client.notified())
					.containsExactly("session-1 notifications/elicitation/complete " + id);
			});
	}

	@Test
	void isNotThereWithoutTheConsole(CapturedOutput output) {
		this.contextRunner.withPropertyValues("agent.middleware.approval.web.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(McpUrlElicitationApprovalProvider.class));
		assertThat(output).contains("Approval providers, first that can handle a call asks: none (calls that need "
				+ "approval are denied)");
	}

	@Test
	void anInvalidPublicUrlFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("agent.middleware.approval.web.public-url=agents.example.com")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("agent.middleware.approval.web.public-url")
				.hasStackTraceContaining("must be an absolute http: or https: URL"));
	}

	@Test
	void theConsolePageOfOneRequestRefusesAnIdThatCannotBeOurs() {
		this.contextRunner.run((context) -> {
			ApprovalController console = context.getBean(ApprovalController.class);
			assertThat(console.consoleOfRequest("\";alert(1)//").getStatusCode().value()).isEqualTo(404);
			assertThat(console.console()).contains("const only = null;");
		});
	}

}
