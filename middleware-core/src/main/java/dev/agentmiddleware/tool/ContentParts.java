package dev.agentmiddleware.tool;

import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.agentmiddleware.tool.ToolContent.Annotations;
import org.jspecify.annotations.Nullable;

/**
 * The checks and descriptions the parts of a {@link ToolContent} share.
 */
final class ContentParts {

	private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.\\-]*:\\S");

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

	// Only the scheme is checked: a URI whose credentials were redacted
	// ("https://[REDACTED]@host/") is no longer
	// one java.net.URI parses, and is still the link to show
	static void checkUri(String uri) {
		Objects.requireNonNull(uri, "uri");
		if (!SCHEME.matcher(uri).lookingAt()) {
			throw new IllegalArgumentException("uri must be absolute (start with a scheme), was '" + uri + "'");
		}
	}

	static String annotationsText(@Nullable Annotations annotations) {
		return (annotations != null) ? ", " + annotations : "";
	}

}
