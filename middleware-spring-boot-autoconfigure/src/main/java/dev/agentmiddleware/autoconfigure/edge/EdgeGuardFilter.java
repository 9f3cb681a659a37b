package dev.agentmiddleware.autoconfigure.edge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UrlPathHelper;

/**
 * Refuses a request to a guarded path (a path and everything under it) with 403 and a
 * short JSON message when its {@code Host} or {@code Origin} header is foreign, as the
 * {@link HostOriginGuard} judges.
 */
final class EdgeGuardFilter extends OncePerRequestFilter {

	private final HostOriginGuard guard;

	private final List<String> paths;

	EdgeGuardFilter(HostOriginGuard guard, List<String> paths) {
		this.guard = guard;
		this.paths = paths.stream().map(EdgeGuardFilter::normalized).distinct().toList();
	}

	List<String> paths() {
		return this.paths;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		String path = UrlPathHelper.defaultInstance.getPathWithinApplication(request);
		for (String guarded : this.paths) {
			if (path.equals(guarded) || path.startsWith(guarded + "/") || guarded.equals("/")) {
				return false;
			}
		}
		return true;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String refusal = this.guard.refusal(request.getHeader(HttpHeaders.HOST), request.getHeader(HttpHeaders.ORIGIN));
		if (refusal == null) {
			chain.doFilter(request, response);
			return;
		}
		response.setStatus(HttpServletResponse.SC_FORBIDDEN);
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8.name());
		response.getWriter().write("{\"error\":\"" + refusal + "\"}");
	}

	private static String normalized(String path) {
		String trimmed = path.trim();
		String absolute = trimmed.startsWith("/") ? trimmed : "/" + trimmed;
		return (absolute.length() > 1 && absolute.endsWith("/")) ? absolute.substring(0, absolute.length() - 1)
				: absolute;
	}

}
