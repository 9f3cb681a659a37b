package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Serves the protected-resource metadata of the MCP endpoint to {@code GET} requests for
 * {@code /.well-known/oauth-protected-resource} and for the same path followed by the
 * endpoint path, to anyone.
 */
final class McpProtectedResourceMetadataFilter extends OncePerRequestFilter {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final McpProtectedResourceMetadata metadata;

	private final String pathForEndpoint;

	McpProtectedResourceMetadataFilter(McpProtectedResourceMetadata metadata, String pathForEndpoint) {
		this.metadata = metadata;
		this.pathForEndpoint = pathForEndpoint;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String path = request.getRequestURI().substring(request.getContextPath().length());
		if (!HttpMethod.GET.matches(request.getMethod())
				|| !(McpResourceServerSecurity.METADATA_PATH.equals(path) || this.pathForEndpoint.equals(path))) {
			chain.doFilter(request, response);
			return;
		}
		response.setStatus(HttpServletResponse.SC_OK);
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setCharacterEncoding("UTF-8");
		response.getWriter().write(JSON.writeValueAsString(this.metadata.document(request)));
	}

}
