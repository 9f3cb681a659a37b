package dev.agentmiddleware.tool;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

import dev.agentmiddleware.tool.ToolContent.Annotations;
import dev.agentmiddleware.tool.ToolContent.Audience;
import dev.agentmiddleware.tool.ToolContent.EmbeddedResource;
import dev.agentmiddleware.tool.ToolContent.Image;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ToolContentsTests {

	private static final byte[] PNG = new byte[12_345];

	@Test
	void textDescribesTextsAsTheyAreAndBinaryPartsByTypeAndSizeNeverByTheirData() {
		byte[] png = "not really a png, but bytes".getBytes();
		ToolContents contents = ToolContents.of(ToolContent.text("Sales in March"), ToolContent.image(PNG, "image/png"),
				ToolContent.audio(png, "audio/wav"),
				ToolContent.resourceLink("file:///reports/march.csv", "march.csv")
					.withMimeType("text/csv")
					.withSize(2_048L)
					.withTitle("March")
					.withDescription("the figures"),
				ToolContent.resource("file:///notes.md", "# Notes", "text/markdown"),
				ToolContent.resource("file:///report.pdf", png, "application/pdf"));
		assertThat(contents.text()).isEqualTo("""
				Sales in March
				[image/png, 12,345 bytes]
				[audio/wav, 27 bytes]
				[resource link: march.csv, file:///reports/march.csv, text/csv, 2,048 bytes] March: the figures
				[resource file:///notes.md, text/markdown]
				# Notes
				[resource file:///report.pdf, application/pdf, 27 bytes]""");
		assertThat(contents.text()).doesNotContain(Base64.getEncoder().encodeToString(png));
		assertThat(contents.binarySize()).isEqualTo(12_345 + 27 + 27);
	}

	@Test
	void toStringNeverShowsBinaryData() {
		byte[] data = "secret image bytes".getBytes();
		ToolContents contents = ToolContents.of(ToolContent.image(data, "image/png"),
				ToolContent.resource("file:///x.bin", data, "application/octet-stream"));
		assertThat(contents.toString())
			.isEqualTo("ToolContents[Image[image/png, 18 bytes], "
					+ "EmbeddedResource[file:///x.bin, application/octet-stream, 18 bytes]]")
			.doesNotContain(Base64.getEncoder().encodeToString(data));
	}

	@Test
	void binaryDataIsCopiedInAndOutSoAResultCannotBeChangedAfterwards() {
		byte[] data = { 1, 2, 3 };
		Image image = ToolContent.image(data, "image/png");
		data[0] = 9;
		assertThat(image.data()).containsExactly(1, 2, 3);
		image.data()[1] = 9;
		assertThat(image.data()).containsExactly(1, 2, 3);
		EmbeddedResource resource = ToolContent.resource("file:///x.bin", data, "application/octet-stream");
		data[1] = 7;
		resource.blob()[2] = 7;
		assertThat(resource.blob()).containsExactly(9, 2, 3);
		List<ToolContent> parts = new ArrayList<>(List.of(image));
		ToolContents contents = ToolContents.of(parts);
		parts.clear();
		assertThat(contents.parts()).containsExactly(image);
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> contents.parts().add(ToolContent.text("more")));
	}

	@Test
	void partsAreValuesEqualByTheirDataAndAnnotations() {
		Annotations forUser = Annotations.forAudience(Audience.USER).withPriority(0.5);
		assertThat(ToolContents.of(ToolContent.image(new byte[] { 1, 2 }, "image/png").annotated(forUser)))
			.isEqualTo(ToolContents.of(ToolContent.image(new byte[] { 1, 2 }, "image/png").annotated(forUser)))
			.hasSameHashCodeAs(ToolContents.of(ToolContent.image(new byte[] { 1, 2 }, "image/png").annotated(forUser)))
			.isNotEqualTo(ToolContents.of(ToolContent.image(new byte[] { 1, 3 }, "image/png").annotated(forUser)))
			.isNotEqualTo(ToolContents.of(ToolContent.image(new byte[] { 1, 2 }, "image/png")));
		assertThat(ToolContent.resource("file:///a", new byte[] { 1 }, "application/pdf"))
			.isEqualTo(ToolContent.resource("file:///a", new byte[] { 1 }, "application/pdf"));
	}

	@Test
	void annotationsCarryAudiencePriorityAndLastModified() {
		Instant changed = Instant.parse("2026-03-31T12:00:00Z");
		Annotations annotations = Annotations.forAudience(Audience.USER, Audience.ASSISTANT)
			.withPriority(0.9)
			.withLastModified(changed);
		assertThat(annotations.audience()).containsExactlyInAnyOrder(Audience.USER, Audience.ASSISTANT);
		assertThat(annotations.priority()).isEqualTo(0.9);
		assertThat(annotations.lastModified()).isEqualTo(changed);
		assertThat(ToolContent.text("hi").annotated(annotations).annotations()).isEqualTo(annotations);
		assertThat(new Annotations(Set.of(), null, null).audience()).isEmpty();
	}

	@Test
	void priorityMustBeBetweenZeroAndOne() {
		assertThatIllegalArgumentException().isThrownBy(() -> Annotations.forAudience().withPriority(1.5))
			.withMessage("priority must be between 0 and 1, was 1.5");
		assertThatIllegalArgumentException().isThrownBy(() -> Annotations.forAudience().withPriority(Double.NaN));
	}

	@Test
	void binaryPartsNeedAMimeTypeOfTheirKind() {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolContent.image(PNG, "audio/wav"))
			.withMessage("mimeType must be an image/ type, was 'audio/wav'");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolContent.audio(PNG, "image/png"))
			.withMessage("mimeType must be an audio/ type, was 'image/png'");
	}

	@Test
	void resourcesNeedAnAbsoluteUriAndEitherATextOrABlob() {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolContent.resourceLink("reports/march.csv", "march"))
			.withMessage("uri must be absolute (start with a scheme), was 'reports/march.csv'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new EmbeddedResource("file:///a", "text/plain", "text", new byte[1], null))
			.withMessage("An embedded resource has either a text or a blob, not both");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolContent.resourceLink("file:///a", "a").withSize(-1L))
			.withMessage("size must not be negative, was -1");
	}

	@Test
	void binaryPartsGiveTheirBase64ForProtocolsThatSendIt() {
		byte[] data = { 1, 2, 3 };
		assertThat(ToolContent.image(data, "image/png").base64()).isEqualTo("AQID");
		assertThat(ToolContent.audio(data, "audio/wav").base64()).isEqualTo("AQID");
		assertThat(ToolContent.resource("file:///a", data, "application/pdf").base64()).isEqualTo("AQID");
	}

}
