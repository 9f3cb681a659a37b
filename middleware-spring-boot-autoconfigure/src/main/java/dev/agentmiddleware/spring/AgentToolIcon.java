package dev.agentmiddleware.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An icon of an {@link AgentTool}, published in the MCP tool's {@code icons} (MCP
 * 2025-11-25) so that a client can show it beside the tool. Configuration under
 * {@code agent.middleware.mcp.tools.<tool-name>.icons} replaces the icons the annotation
 * declares. <pre>{@code
 * &#64;AgentTool(description = "Current weather for a city",
 *         icons = @AgentToolIcon(src = "https://example.com/icons/weather.png", sizes = "48x48"))
 * public Weather getWeather(String city) { ... }
 * }</pre>
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface AgentToolIcon {

	/**
	 * Where the icon is: an {@code https:} or {@code http:} URL, or a {@code data:} URI
	 * such as {@code data:image/png;base64,iVBORw0...}.
	 * @return the icon's URI
	 */
	String src();

	/**
	 * The icon's media type, such as {@code image/png}; empty to derive it from the
	 * {@code data:} URI or the URL's file extension ({@code png},
	 * {@code jpg}/{@code jpeg}, {@code svg}, {@code webp}, {@code gif}, {@code ico}), or
	 * to leave it out when neither tells.
	 * @return the media type, or empty
	 */
	String mimeType() default "";

	/**
	 * The sizes the icon fits, each {@code WIDTHxHEIGHT} such as {@code 48x48}, or
	 * {@code any} for a scalable icon; empty for any size.
	 * @return the sizes
	 */
	String[] sizes() default {};

	/**
	 * The background the icon is drawn for.
	 * @return the theme, {@link Theme#ANY} for both
	 */
	Theme theme() default Theme.ANY;

	/**
	 * The background an icon is drawn for: MCP's {@code theme}.
	 */
	enum Theme {

		/** Any background; no {@code theme} is published. */
		ANY,

		/** A light background. */
		LIGHT,

		/** A dark background. */
		DARK

	}

}
