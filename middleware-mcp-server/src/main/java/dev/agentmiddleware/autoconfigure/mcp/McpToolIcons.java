package dev.agentmiddleware.autoconfigure.mcp;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentmiddleware.autoconfigure.PerToolSettings;
import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolIcon;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * The icons of an MCP tool (MCP 2025-11-25 {@code icons}): those of
 * {@code agent.middleware.mcp.tools.<tool-name>.icons} when configured, else those of
 * {@link AgentTool#icons()}. Each icon's {@code src} must be an {@code https:},
 * {@code http:} or {@code data:} URI; a missing media type is taken from the
 * {@code data:} URI or the URL's file extension; sizes are {@code WIDTHxHEIGHT} or
 * {@code any}. <pre>{@code
 * List<McpSchema.Icon> icons = McpToolIcons.of(tool, mcpProperties);
 * }</pre>
 */
final class McpToolIcons {

	private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*):");

	private static final Pattern SIZE = Pattern.compile("[1-9][0-9]*x[1-9][0-9]*|any");

	private static final Map<String, String> MEDIA_TYPES = Map.of("png", "image/png", "jpg", "image/jpeg", "jpeg",
			"image/jpeg", "svg", "image/svg+xml", "webp", "image/webp", "gif", "image/gif", "ico", "image/x-icon");

	private McpToolIcons() {
	}

	/**
	 * The icons to publish for a tool.
	 * @param tool the registered tool
	 * @param properties the MCP properties, whose icons win over the annotation's
	 * @return the icons, empty for none
	 * @throws IllegalStateException if an icon of the annotation is invalid, naming the
	 * tool and the attribute
	 */
	static List<McpSchema.Icon> of(RegisteredTool tool, McpProperties properties) {
		String key = PerToolSettings.keyOf(properties.getTools(), tool.name());
		if (key != null) {
			String property = McpProperties.PREFIX + ".tools." + key + ".icons";
			return fromProperties(property, properties.getTools().get(key).getIcons());
		}
		return fromAnnotation(tool);
	}

	/**
	 * The icons an {@link AgentTool} declares.
	 * @param tool the registered tool
	 * @return the icons, empty for none or for a tool that is not an annotated method
	 */
	static List<McpSchema.Icon> fromAnnotation(RegisteredTool tool) {
		AgentTool annotation = (tool.method() != null) ? ToolNames.annotation(tool.method()) : null;
		if (annotation == null) {
			return List.of();
		}
		List<McpSchema.Icon> icons = new ArrayList<>();
		AgentToolIcon[] declared = annotation.icons();
		for (int i = 0; i < declared.length; i++) {
			AgentToolIcon icon = declared[i];
			String where = "@AgentTool(icons[" + i + "]) of tool '" + tool.name() + "'";
			icons.add(icon(icon.src(), icon.mimeType(), List.of(icon.sizes()), icon.theme(),
					(reason) -> new IllegalStateException(where + ": " + reason)));
		}
		return List.copyOf(icons);
	}

	/**
	 * The icons of a tool's configuration, checked.
	 * @param property the property of the list, such as
	 * {@code agent.middleware.mcp.tools.search.icons}
	 * @param configured the configured icons
	 * @return the icons
	 * @throws InvalidToolConfigurationException naming the icon's property and what is
	 * expected
	 */
	static List<McpSchema.Icon> fromProperties(String property, List<McpProperties.Icon> configured) {
		List<McpSchema.Icon> icons = new ArrayList<>();
		for (int i = 0; i < configured.size(); i++) {
			McpProperties.Icon icon = configured.get(i);
			String iconProperty = property + "[" + i + "]";
			icons.add(icon(icon.getSrc(), icon.getMimeType(), icon.getSizes(), icon.getTheme(),
					(reason) -> new InvalidToolConfigurationException(iconProperty, reason,
							"Correct the icon under '" + iconProperty + "'.")));
		}
		return List.copyOf(icons);
	}

	private static McpSchema.Icon icon(@Nullable String src, @Nullable String mimeType, List<String> sizes,
			AgentToolIcon.@Nullable Theme theme, Function<String, RuntimeException> invalid) {
		if (src == null || src.isBlank()) {
			throw invalid.apply("src must be set to an https:, http: or data: URI");
		}
		String uri = src.strip();
		Matcher scheme = SCHEME.matcher(uri);
		String name = scheme.lookingAt() ? scheme.group(1).toLowerCase(Locale.ROOT) : "";
		boolean valid = switch (name) {
			case "data" -> uri.indexOf(',') > 0;
			case "https", "http" -> host(uri) != null;
			default -> false;
		};
		if (!valid) {
			throw invalid.apply("src must be an https:, http: or data: URI, was '" + abbreviated(uri) + "'");
		}
		for (String size : sizes) {
			if (size == null || !SIZE.matcher(size).matches()) {
				throw invalid.apply("a size must be WIDTHxHEIGHT (such as 48x48) or 'any', was '" + size + "'");
			}
		}
		String type = (mimeType != null && !mimeType.isBlank()) ? mimeType.strip() : derivedMimeType(uri, name);
		return McpSchema.Icon.builder(uri)
			.mimeType(type)
			.sizes(sizes.isEmpty() ? null : List.copyOf(sizes))
			.theme((theme != null && theme != AgentToolIcon.Theme.ANY) ? theme.name().toLowerCase(Locale.ROOT) : null)
			.build();
	}

	private static @Nullable String host(String url) {
		try {
			return new URI(url).getHost();
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

	// data:image/png;base64,... gives image/png; https://host/icon.svg?v=2 gives
	// image/svg+xml
	private static @Nullable String derivedMimeType(String uri, String scheme) {
		if ("data".equals(scheme)) {
			String header = uri.substring("data:".length(), uri.indexOf(','));
			String type = header.split(";", 2)[0].strip();
			return type.isEmpty() ? null : type.toLowerCase(Locale.ROOT);
		}
		String path = URI.create(uri).getPath();
		if (path == null) {
			return null;
		}
		int dot = path.lastIndexOf('.');
		return (dot >= 0 && dot > path.lastIndexOf('/'))
				? MEDIA_TYPES.get(path.substring(dot + 1).toLowerCase(Locale.ROOT)) : null;
	}

	// A data URI can be long; the message shows its start
	private static String abbreviated(String src) {
		return (src.length() <= 60) ? src : src.substring(0, 60) + "...";
	}

}
