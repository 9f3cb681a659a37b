package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.results.ResultGuardMiddleware.ToolResultRefusedException;
import dev.agentmiddleware.results.ResultPolicy.OnExceed;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContent.Annotations;
import dev.agentmiddleware.tool.ToolContent.Audience;
import dev.agentmiddleware.tool.ToolContent.EmbeddedResource;
import dev.agentmiddleware.tool.ToolContent.ResourceLink;
import dev.agentmiddleware.tool.ToolContent.Text;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The result guards on a rich result ({@link ToolContents}), through the
 * {@link ResultGuardMiddleware}.
 */
class ContentsGuardTests {

	private static final Annotations FOR_USER = Annotations.forAudience(Audience.USER).withPriority(0.7);

	private final Map<MiddlewareEvent, Integer> counted = new EnumMap<>(MiddlewareEvent.class);

	private final MiddlewareMetrics metrics = (event, tool) -> this.counted.merge(event, 1, Integer::sum);

	@Test
	void secretsAreRedactedInEveryTextPartEmbeddedTextAndLinkKeepingAnnotationsAndBinaryParts() throws Exception {
		ToolContent image = ToolContent.image(new byte[] { 1, 2, 3 }, "image/png").annotated(FOR_USER);
		ToolContents contents = ToolContents.of(ToolContent.text("token=abc123").annotated(FOR_USER), image,
				ToolContent.resource("file:///app.properties", "db.password=hunter2", "text/plain"),
				ToolContent.resourceLink("https://admin:hunter2@db.example.org/dump", "dump")
					.withDescription("use api_key=sk-1"));
		ToolContents guarded = (ToolContents) call(contents, policy(10_000, OnExceed.TRUNCATE));
		assertThat(guarded.parts()).hasSize(4);
		assertThat(guarded.parts().get(0)).isEqualTo(ToolContent.text("token=[REDACTED]").annotated(FOR_USER));
		assertThat(guarded.parts().get(1)).isEqualTo(image);
		assertThat(((EmbeddedResource) guarded.parts().get(2)).text()).isEqualTo("db.password=[REDACTED]");
		ResourceLink link = (ResourceLink) guarded.parts().get(3);
		assertThat(link.uri()).isEqualTo("https://[REDACTED]@db.example.org/dump");
		assertThat(link.description()).isEqualTo("use api_key=[REDACTED]");
		assertThat(guarded.toString() + guarded.text()).doesNotContain("hunter2", "abc123", "sk-1");
		assertThat(this.counted).containsEntry(MiddlewareEvent.RESULT_REDACTED, 1);
	}

	@Test
	void aResultWithNothingToGuardIsHandedOnAsItIs() throws Exception {
		ToolContents contents = ToolContents.of(ToolContent.text("Sales in March"),
				ToolContent.image(new byte[100], "image/png"));
		assertThat(call(contents, policy(1_000, OnExceed.TRUNCATE))).isSameAs(contents);
		assertThat(this.counted).isEmpty();
	}

	@Test
	void personalDataIsMaskedInTextParts() throws Exception {
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder()
			.policies((tool) -> new ResultPolicy(1_000, OnExceed.TRUNCATE, true, List.of("email")))
			.personalDataDetectors(List.of(new EmailDetector()))
			.metrics(this.metrics)
			.build();
		ToolContents contents = ToolContents.of(ToolContent.text("write to alice@example.com"));
		ToolContents guarded = (ToolContents) ToolPipeline.chain(tool(contents), middleware)
			.call(ToolInvocation.builder(tool(contents).descriptor()).build());
		assertThat(guarded.text()).isEqualTo("write to [EMAIL]");
	}

	@Test
	void textsTogetherAreHeldToTheLimitTheFirstKeptWholeALaterOneCut() throws Exception {
		ToolContents contents = ToolContents.of(ToolContent.text("a".repeat(300)),
				ToolContent.image(new byte[10], "image/png"), ToolContent.text("b".repeat(2_000)),
				ToolContent.text("c".repeat(500)));
		ToolContents guarded = (ToolContents) call(contents, policy(1_000, OnExceed.TRUNCATE));
		List<String> texts = new ArrayList<>();
		for (ToolContent part : guarded.parts()) {
			if (part instanceof Text text) {
				texts.add(text.text());
			}
		}
		assertThat(texts.get(0)).isEqualTo("a".repeat(300));
		assertThat(texts.get(1)).startsWith("bbb").contains("… [cut: ").hasSizeLessThanOrEqualTo(700);
		assertThat(texts.get(2)).startsWith(
				"… [cut: 500 more characters; the tool's result is longer than its limit " + "of 1,000 characters]");
		assertThat(texts.get(0).length() + texts.get(1).length()).isLessThanOrEqualTo(1_000);
		assertThat(guarded.parts().get(1)).isEqualTo(contents.parts().get(1));
		assertThat(this.counted).containsEntry(MiddlewareEvent.RESULT_TRUNCATED, 1);
	}

	@Test
	void withRefuseTextsOverTheLimitAreRefused() {
		ToolContents contents = ToolContents.of(ToolContent.text("a".repeat(600)), ToolContent.text("b".repeat(600)));
		assertThatExceptionOfType(ToolResultRefusedException.class)
			.isThrownBy(() -> call(contents, policy(1_000, OnExceed.REFUSE)))
			.withMessage("The result of tool 'chart' was refused by results: its texts have 1,200 characters, more "
					+ "than its limit of 1,000");
		assertThat(this.counted).containsEntry(MiddlewareEvent.RESULT_REFUSED, 1);
	}

	@Test
	void binaryPartsOverTheLimitInBytesAreLeftOutAndSaySoKeepingTheirAnnotations() throws Exception {
		ToolContent small = ToolContent.image(new byte[600], "image/png");
		ToolContents contents = ToolContents.of(small,
				ToolContent.audio(new byte[500], "audio/wav").annotated(FOR_USER),
				ToolContent.resource("file:///a.pdf", new byte[300], "application/pdf"));
		ToolContents guarded = (ToolContents) call(contents,
				new ResultPolicy(1_000, OnExceed.TRUNCATE, true, List.of(), 1_000));
		assertThat(guarded.parts()).hasSize(3);
		assertThat(guarded.parts().get(0)).isEqualTo(small);
		assertThat(guarded.parts().get(1)).isEqualTo(ToolContent
			.text("[audio/wav, 500 bytes] [left out: the tool's binary data is over its limit of 1,000 bytes]")
			.annotated(FOR_USER));
		assertThat(guarded.parts().get(2)).isEqualTo(contents.parts().get(2));
		assertThat(guarded.binarySize()).isEqualTo(900);
		assertThat(this.counted).containsEntry(MiddlewareEvent.RESULT_TRUNCATED, 1);
	}

	@Test
	void withRefuseBinaryDataOverTheLimitIsRefused() {
		ToolContents contents = ToolContents.of(ToolContent.image(new byte[2_000], "image/png"));
		assertThatExceptionOfType(ToolResultRefusedException.class)
			.isThrownBy(() -> call(contents, new ResultPolicy(1_000, OnExceed.REFUSE, true, List.of(), 1_000)))
			.withMessageEndingWith("its binary data has 2,000 bytes or more, more than its limit of 1,000");
	}

	@Test
	void binaryDataIsNotLimitedWhenTheLimitIsZero() throws Exception {
		ToolContents contents = ToolContents.of(ToolContent.image(new byte[2_000_000], "image/png"));
		assertThat(call(contents, new ResultPolicy(10, OnExceed.REFUSE, true, List.of(), ResultPolicy.UNLIMITED)))
			.isSameAs(contents);
	}

	@Test
	void guardsSeeEachTextOnItsOwnAndNeverTheBinaryParts() throws Exception {
		List<String> seen = new ArrayList<>();
		ToolResultGuard shout = (invocation, result) -> {
			seen.add(result.text());
			return result.withText(result.text().toUpperCase());
		};
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder()
			.policies((tool) -> policy(1_000, OnExceed.TRUNCATE))
			.guards(List.of(shout))
			.build();
		ToolContents contents = ToolContents.of(ToolContent.text("first"), ToolContent.image(new byte[3], "image/png"),
				ToolContent.resource("file:///n.txt", "second", "text/plain"));
		ToolContents guarded = (ToolContents) ToolPipeline.chain(tool(contents), middleware)
			.call(ToolInvocation.builder(tool(contents).descriptor()).build());
		assertThat(seen).containsExactly("first", "second");
		assertThat(guarded.text())
			.isEqualTo("FIRST\n[image/png, 3 bytes]\n[resource file:///n.txt, text/plain]\nSECOND");
	}

	@Test
	void theDefaultPolicyLimitsBinaryDataToFiveMegabytes() {
		assertThat(new ResultPolicy(1_000, OnExceed.TRUNCATE, true).maxBinaryBytes()).isEqualTo(5L * 1024 * 1024);
	}

	private Object call(ToolContents contents, ResultPolicy policy) throws Exception {
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder()
			.policies((tool) -> policy)
			.metrics(this.metrics)
			.build();
		ExecutableTool tool = tool(contents);
		return ToolPipeline.chain(tool, middleware).call(ToolInvocation.builder(tool.descriptor()).build());
	}

	private static ResultPolicy policy(int maxChars, OnExceed onExceed) {
		return new ResultPolicy(maxChars, onExceed, true);
	}

	private static ExecutableTool tool(ToolContents contents) {
		return new ExecutableTool(ToolDescriptor.builder("chart").resultType(ToolContents.class).build(),
				(invocation) -> contents);
	}

}
