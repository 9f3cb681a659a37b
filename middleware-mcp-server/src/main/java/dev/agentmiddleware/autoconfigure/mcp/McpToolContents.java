package dev.agentmiddleware.autoconfigure.mcp;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContent.Annotations;
import dev.agentmiddleware.tool.ToolContent.Audience;
import dev.agentmiddleware.tool.ToolContent.Audio;
import dev.agentmiddleware.tool.ToolContent.EmbeddedResource;
import dev.agentmiddleware.tool.ToolContent.Image;
import dev.agentmiddleware.tool.ToolContent.ResourceLink;
import dev.agentmiddleware.tool.ToolContent.Text;
import dev.agentmiddleware.tool.ToolContents;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * The MCP {@code tools/call} result of a rich tool result ({@link ToolContents}): each
 * part becomes the content block of its kind, in order, with its annotations
 * ({@code audience}, {@code priority}, {@code lastModified} as ISO 8601): a text
 * {@code text}, an image {@code image} and audio {@code audio} (base64 data with the MIME
 * type), a resource link {@code resource_link} (uri, name, title, description, MIME type,
 * size) and an embedded resource {@code resource} (its text or base64 blob, with its URI
 * and MIME type). No {@code structuredContent}. <pre>{@code
 * McpSchema.CallToolResult result = McpToolContents.result(ToolContents.of(ToolContent.text("chart"),
 *         ToolContent.image(png, "image/png")));
 * }</pre>
 */
final class McpToolContents {

	private McpToolContents() {
	}

	/**
	 * Whether results of a tool's result type are rich results, which have no
	 * {@code outputSchema}.
	 * @param type the tool method's return type
	 * @return {@code true} for {@link ToolContents}
	 */
	static boolean isRich(Class<?> type) {
		return ToolContents.class.isAssignableFrom(type);
	}

	/**
	 * The MCP result of a rich result.
	 * @param contents the result, already guarded
	 * @return the MCP result, its content blocks in the order of the parts
	 */
	static McpSchema.CallToolResult result(ToolContents contents) {
		List<McpSchema.Content> blocks = new ArrayList<>(contents.parts().size());
		for (ToolContent part : contents.parts()) {
			blocks.add(content(part));
		}
		return McpSchema.CallToolResult.builder().content(blocks).isError(false).build();
	}

	/**
	 * The MCP content block of one part.
	 * @param part the part
	 * @return the block of its kind
	 */
	static McpSchema.Content content(ToolContent part) {
		McpSchema.Annotations annotations = annotations(part.annotations());
		if (part instanceof Text text) {
			return new McpSchema.TextContent(annotations, text.text());
		}
		if (part instanceof Image image) {
			return new McpSchema.ImageContent(annotations, image.base64(), image.mimeType());
		}
		if (part instanceof Audio audio) {
			return new McpSchema.AudioContent(annotations, audio.base64(), audio.mimeType());
		}
		if (part instanceof ResourceLink link) {
			return new McpSchema.ResourceLink(link.name(), link.title(), link.uri(), link.description(),
					link.mimeType(), link.size(), annotations, null);
		}
		EmbeddedResource resource = (EmbeddedResource) part;
		McpSchema.ResourceContents contents = resource.isText()
				? new McpSchema.TextResourceContents(resource.uri(), resource.mimeType(), resource.text())
				: new McpSchema.BlobResourceContents(resource.uri(), resource.mimeType(), resource.base64());
		return new McpSchema.EmbeddedResource(annotations, contents);
	}

	private static McpSchema.@Nullable Annotations annotations(@Nullable Annotations annotations) {
		if (annotations == null) {
			return null;
		}
		List<McpSchema.Role> audience = null;
		if (!annotations.audience().isEmpty()) {
			audience = new ArrayList<>(2);
			// In a fixed order: the set has none
			for (Audience one : Audience.values()) {
				if (annotations.audience().contains(one)) {
					audience.add((one == Audience.USER) ? McpSchema.Role.USER : McpSchema.Role.ASSISTANT);
				}
			}
		}
		return new McpSchema.Annotations(audience, annotations.priority(),
				(annotations.lastModified() != null) ? annotations.lastModified().toString() : null);
	}

}
