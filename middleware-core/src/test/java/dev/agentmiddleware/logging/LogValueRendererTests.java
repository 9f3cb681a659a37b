package dev.agentmiddleware.logging;

import java.util.Base64;

import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContents;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LogValueRendererTests {

	private final LogValueRenderer renderer = new LogValueRenderer(SecretRedactor.withDefaults(), null);

	@Test
	void aRichResultShowsItsTextsRedactedAndCutAndBinaryDataOnlyByTypeAndSize() {
		byte[] png = new byte[12_345];
		png[0] = 42;
		ToolContents contents = ToolContents.of(ToolContent.text("token=abc123 and a long tail of text"),
				ToolContent.image(png, "image/png"), ToolContent.resource("file:///a.pdf", png, "application/pdf"),
				ToolContent.resourceLink("https://u:p@example.org/x", "x"));
		StringBuilder line = new StringBuilder();
		this.renderer.appendValue(line, contents, 30, 0);
		assertThat(line).hasToString("[\"token=[REDACTED] and a long t…\", Image \"[image/png, 12,345 bytes]\", "
				+ "EmbeddedResource \"[resource file:///a.pdf, appl…\", ResourceLink \"[resource link: x, "
				+ "https://[R…\"]");
		assertThat(line.toString()).doesNotContain(Base64.getEncoder().encodeToString(png).substring(0, 12));
	}

}
