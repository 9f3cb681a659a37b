package dev.agentmiddleware.tool;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

import dev.agentmiddleware.tool.ToolContent.Annotations;
import org.jspecify.annotations.Nullable;

/**
 * The checks and descriptions the parts of a {@link ToolContent} share.
 */
final class ContentParts {

	private ContentParts() {
	}

	static String describe(String mimeType, int size) {
		return "[" + typeAndSize(mimeType, size) + "]";
	}

	static String typeAndSize(String mimeType, long size) {
		return String.format(Locale.ROOT, "%s, %,d bytes", mimeType, size);
	}

	static String base64(byte[] data) {
		return Base64.getEncoder().encodeToString(data);
	}

	static void checkMimeType(String mimeType, String prefix) {
		Objects.requireNonNull(mimeType, "mimeType");
		if (!mimeType.toLowerCase(Locale.ROOT).startsWith(prefix) || mimeType.length() == prefix.length()) {
			throw new IllegalArgumentException("mimeType must be an " + prefix + " type, was '" + mimeType + "'");
		}
	}

	static void checkUri(String uri) {
		Objects.requireNonNull(uri, "uri");
		URI parsed;
		try {
			parsed = new URI(uri);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("uri is not a URI: '" + uri + "'", ex);
		}
		if (!parsed.isAbsolute()) {
			throw new IllegalArgumentException("uri must be absolute (with a scheme), was '" + uri + "'");
		}
	}

	static String annotationsText(@Nullable Annotations annotations) {
		return (annotations != null) ? ", " + annotations : "";
	}

}
