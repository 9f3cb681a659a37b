package dev.agentmiddleware.sample;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import dev.agentmiddleware.testsupport.RequiresService;
import dev.agentmiddleware.testsupport.TestService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's tools that return an image and that talk to their client, driven by the
 * official MCP TypeScript SDK client
 * ({@code src/test/node/mcp-client/features-client.mjs}, which declares form elicitation
 * and sampling): {@code weather_chart} answers with a text and a PNG image;
 * {@code plan_trip} logs to the client as far as its {@code logging/setLevel} asked, asks
 * its user how long and at what pace, and has its model sum the plan up, all while its
 * call is governed (the call log shows the call and each request to the client);
 * cancelling the call ends its waiting elicitation, which the server withdraws with a
 * {@code notifications/cancelled} of its own. The report generator's last progress
 * report, {@code 100/100}, reaches the client before the result
 * ({@code progress-client.mjs}).
 */
@RequiresService(TestService.NODE)
@ExtendWith(OutputCaptureExtension.class)
// A report of 1 s against the sample's 2 s timeout would leave a loaded machine 1 s for
// the rest; the progress interval is the default, 5 s
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "agent.middleware.timeout.tools.generate-report.timeout=30s")
class TypeScriptClientFeaturesIntegrationTests {

	// Light rain there today, according to the sample's simulated forecast
	private static final String CITY = "Seattle";

	private static final String SCRIPT = "features-client.mjs";

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void weatherChartGivesTheTypeScriptClientATextAndAPngImage() throws Exception {
		JsonNode chart = run("chart");

		assertThat(chart.get("isError").asBoolean()).isFalse();
		assertThat(chart.get("types").valueStream().map(JsonNode::asString)).containsExactly("text", "image");
		assertThat(chart.get("text").asString())
			.matches("Temperatures in " + CITY + " for the next 5 days: (-?\\d+ °C, ){4}-?\\d+ °C");
		JsonNode image = chart.get("images").get(0);
		assertThat(image.get("mimeType").asString()).isEqualTo("image/png");
		BufferedImage png = ImageIO
			.read(new ByteArrayInputStream(Base64.getDecoder().decode(image.get("data").asString())));
		assertThat(png).as("a PNG image").isNotNull();
		assertThat(png.getWidth()).as("five bars").isEqualTo(8 + 5 * (24 + 8));
		assertThat(png.getHeight()).isEqualTo(100);
	}

	@Test
	void tripPlannerLogsAtTheClientsLevelElicitsAndSamplesWhileItsCallIsGoverned(CapturedOutput output)
			throws Exception {
		JsonNode seen = run("trip");

		assertThat(seen.get("isError").asBoolean()).isFalse();
		assertThat(seen.get("text").asString())
			.startsWith("A relaxed trip of 7 days to " + CITY + ":\nDay 1 (light rain, ")
			.contains("\nDay 7 (no forecast): ")
			.endsWith("\nIn short: A relaxed week between museums and the harbour.");

		// logging/setLevel warning: the tool's info message is not sent, its warning and
		// error are
		assertThat(seen.get("logs")
			.valueStream()
			.map((log) -> log.get("level").asString() + " " + log.get("logger").asString() + " "
					+ log.get("data").asString()))
			.containsExactly("warning plan_trip light rain in " + CITY + " today: the plan starts indoors",
					"error plan_trip no forecast for days 6 to 7: they are planned without the weather");

		assertThat(seen.get("elicitations")).hasSize(1);
		JsonNode elicitation = seen.get("elicitations").get(0);
		assertThat(elicitation.get("message").asString())
			.isEqualTo("Planning a trip to " + CITY + ": how many days (1 to 14), and at what pace?");
		JsonNode form = elicitation.get("requestedSchema");
		assertThat(form.get("properties").get("days").get("type").asString()).isEqualTo("integer");
		assertThat(form.get("properties").get("days").get("default").asInt()).isEqualTo(3);
		assertThat(form.get("properties").get("pace").get("enum").valueStream().map(JsonNode::asString))
			.containsExactly("relaxed", "balanced", "packed");
		assertThat(form.get("properties").get("pace").get("default").asString()).isEqualTo("balanced");
		assertThat(form.get("required").valueStream().map(JsonNode::asString)).containsExactly("days", "pace");

		assertThat(seen.get("samplings")).hasSize(1);
		JsonNode sampling = seen.get("samplings").get(0);
		assertThat(sampling.get("systemPrompt").asString())
			.isEqualTo("You sum up travel plans in one friendly sentence.");
		assertThat(sampling.get("maxTokens").asInt()).isEqualTo(100);
		assertThat(sampling.get("messages").get(0).get("role").asString()).isEqualTo("user");
		assertThat(sampling.get("messages").get(0).get("content").get("text").asString())
			.startsWith("Sum up this plan:\nA relaxed trip of 7 days to " + CITY + ":");

		// The call log: the call, and each request to its client as part of it
		String call = await().atMost(Duration.ofSeconds(10))
			.until(() -> callId(output, "source=mcp outcome=succeeded"), (id) -> id != null);
		assertThat(output.getAll())
			.contains("tool=plan_trip call=" + call + " client_request=elicitation outcome=accept")
			.contains("tool=plan_trip call=" + call + " client_request=sampling outcome=answered");
	}

	@Test
	void cancellingTheCallWithdrawsItsWaitingElicitation(CapturedOutput output) throws Exception {
		JsonNode seen = run("cancel");

		assertThat(seen.get("elicitation").get("message").asString()).startsWith("Planning a trip to " + CITY);
		assertThat(seen.get("call").get("settled").asString()).as("the aborted call rejects in the client")
			.isEqualTo("rejected");
		assertThat(seen.get("call").get("message").asString()).contains("the user closed the trip planner");
		// The server sent notifications/cancelled for its elicitation request: the SDK
		// aborted the signal of the handler still waiting for the user
		JsonNode withdrawn = seen.get("elicitationWithdrawn");
		assertThat(withdrawn.isNull()).as("the elicitation was withdrawn within 10 s").isFalse();
		assertThat(withdrawn.get("reason").asString())
			.isEqualTo("The elicitation request of tool 'plan_trip' was withdrawn: the call was cancelled "
					+ "(the client cancelled the request: the user closed the trip planner)");

		// The tool got a CancellationException: its request and its call end cancelled
		String call = await().atMost(Duration.ofSeconds(10))
			.until(() -> callId(output, "source=mcp outcome=cancelled"), (id) -> id != null);
		assertThat(output.getAll())
			.contains("tool=plan_trip call=" + call + " client_request=elicitation outcome=cancelled");
	}

	@Test
	void reportGeneratorsLastProgressReportReachesTheTypeScriptClientBeforeItsResult() throws Exception {
		// 100/100 comes a second after 0/100, within the interval of 5 s: it waits for
		// the interval's end, but the tool returns first, and it is sent before the
		// result
		TypeScriptClientIntegrationTests.installClient();
		String output = TypeScriptClientIntegrationTests.run(List.of("node", "progress-client.mjs",
				"http://localhost:" + this.port + "/mcp", "generate_report", "{\"topic\":\"q4\",\"seconds\":1}"), 120);
		assertThat(output.lines().map(JsonMapper.shared()::readTree)).map((line) -> {
			JsonNode progress = line.get("progress");
			return (progress != null)
					? progress.get("progress").asInt() + "/" + progress.get("total").asInt() + " "
							+ progress.get("message").asString()
					: "result " + line.get("result").get("text").asString();
		})
			.containsExactly("0/100 generating the report on q4: 0 of 1 s", "100/100 the report on q4 is ready",
					"result Report on q4: all figures nominal");
	}

	private JsonNode run(String mode) throws Exception {
		TypeScriptClientIntegrationTests.installClient();
		String output = TypeScriptClientIntegrationTests
			.run(List.of("node", SCRIPT, "http://localhost:" + this.port + "/mcp", mode, CITY), 120);
		return JsonMapper.shared().readTree(output.lines().reduce((first, last) -> last).orElseThrow());
	}

	// The call id of the one plan_trip call the call log shows with this outcome, null
	// while there is none
	private static String callId(CapturedOutput output, String outcome) {
		Matcher line = Pattern
			.compile("tool=plan_trip session=\\S+ " + Pattern.quote(outcome) + " duration_ms=\\S+ call=(\\S+)")
			.matcher(output.getAll());
		return line.find() ? line.group(1) : null;
	}

}
