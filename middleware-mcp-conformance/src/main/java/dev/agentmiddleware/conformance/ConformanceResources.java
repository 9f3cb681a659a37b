package dev.agentmiddleware.conformance;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

import org.springframework.ai.mcp.annotation.McpResource;
import org.springframework.stereotype.Component;

/**
 * The resources the conformance suite reads, as Spring AI's {@code @McpResource} methods.
 */
@Component
public class ConformanceResources {

	/** A 1x1 red pixel, PNG, in base64. */
	static final String RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

	@McpResource(uri = "test://static-text", name = "Static Text Resource",
			description = "A static text resource for testing", mimeType = "text/plain")
	public ReadResourceResult staticText() {
		return text("test://static-text", "text/plain", "This is the content of the static text resource.");
	}

	@McpResource(uri = "test://static-binary", name = "Static Binary Resource",
			description = "A static binary resource for testing", mimeType = "image/png")
	public ReadResourceResult staticBinary() {
		return new ReadResourceResult(
				List.of(new BlobResourceContents("test://static-binary", "image/png", RED_PIXEL_PNG)));
	}

	@McpResource(uri = "test://watched-resource", name = "Watched Resource",
			description = "A resource that can be subscribed to for updates", mimeType = "text/plain")
	public ReadResourceResult watchedResource() {
		return text("test://watched-resource", "text/plain", "This is a watched resource content.");
	}

	@McpResource(uri = "test://template/{id}/data", name = "Template Resource",
			description = "A resource template for testing parameter substitution", mimeType = "application/json")
	public ReadResourceResult templateData(String id) {
		return text("test://template/" + id + "/data", "application/json",
				"{\"id\":\"" + id + "\",\"templateTest\":true,\"data\":\"Data for ID: " + id + "\"}");
	}

	private static ReadResourceResult text(String uri, String mimeType, String text) {
		return new ReadResourceResult(List.of(new TextResourceContents(uri, mimeType, text)));
	}

}
