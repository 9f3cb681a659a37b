package dev.agentmiddleware.autoconfigure.edge;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the edge guard: which {@code Host} and {@code Origin} headers the MCP
 * endpoint, the {@code agentmiddleware} actuator endpoint, the approval API and console,
 * and the {@link #getPaths() added paths} accept. <pre>{@code
 * agent:
 *   middleware:
 *     edge:
 *       allowed-hosts: agent.example.com
 *       allowed-origins: https://console.example.com
 *       paths: /chat
 * }</pre> The former {@code agent.middleware.mcp.transport.allowed-hosts} and
 * {@code allowed-origins} still configure the same guard when these are not set.
 */
@ConfigurationProperties(EdgeProperties.PREFIX)
public class EdgeProperties implements ValidatedProperties {

	/** The prefix of the edge properties. */
	public static final String PREFIX = "agent.middleware.edge";

	/**
	 * Host names or addresses the server answers to, as the Host header names them ("*"
	 * for any); by default this machine's loopback names.
	 */
	private @Nullable List<String> allowedHosts;

	/**
	 * Origins a browser page may call from ("*" for any, ":*" for any port); requests
	 * without an Origin header (non-browser clients) and the server's own pages are
	 * always allowed; by default pages served from this machine.
	 */
	private @Nullable List<String> allowedOrigins;

	/**
	 * Further paths of the application to guard like the starter's own, each with
	 * everything under it, such as /chat.
	 */
	private List<String> paths = new ArrayList<>();

	@Override
	public void validate(PropertyChecks checks) {
		checks.noBlankElement("allowedHosts", this.allowedHosts)
			.noBlankElement("allowedOrigins", this.allowedOrigins)
			.noBlankElement("paths", this.paths);
	}

	public @Nullable List<String> getAllowedHosts() {
		return this.allowedHosts;
	}

	public void setAllowedHosts(@Nullable List<String> allowedHosts) {
		this.allowedHosts = allowedHosts;
	}

	public @Nullable List<String> getAllowedOrigins() {
		return this.allowedOrigins;
	}

	public void setAllowedOrigins(@Nullable List<String> allowedOrigins) {
		this.allowedOrigins = allowedOrigins;
	}

	public List<String> getPaths() {
		return this.paths;
	}

	public void setPaths(List<String> paths) {
		this.paths = paths;
	}

}
