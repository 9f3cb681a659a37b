package dev.agentmiddleware.autoconfigure.edge;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.util.StringUtils;
import org.springframework.web.util.UrlPathHelper;
import org.springframework.web.util.WebUtils;

/**
 * Refuses a request to a guarded path (a path and everything under it) with 403 and a
 * short JSON message when its {@code Host} or {@code Origin} header is foreign, as the
 * {@link HostOriginGuard} judges.
 */
final class EdgeGuardFilter extends OncePerRequestFilter {

	private final HostOriginGuard guard;

	private final List<String> paths;

	// Each guarded path with a slash after it: what a path under it starts with
	private final List<String> parents;

	private final boolean guardsAll;

	EdgeGuardFilter(HostOriginGuard guard, List<String> paths) {
		this.guard = guard;
		this.paths = paths.stream().map(EdgeGuardFilter::normalized).distinct().toList();
		this.parents = this.paths.stream().map((path) -> path + "/").toList();
		this.guardsAll = this.paths.contains("/");
	}

	List<String> paths() {
		return this.paths;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		String path = plainPathWithinApplication(request);
		if (path == null) {
			path = UrlPathHelper.defaultInstance.getPathWithinApplication(request);
		}
		if (this.guardsAll) {
			return false;
		}
		for (int i = 0; i < this.paths.size(); i++) {
			if (path.equals(this.paths.get(i)) || path.startsWith(this.parents.get(i))) {
				return false;
			}
		}
		return true;
	}

	// The path within the application as UrlPathHelper reads it, without its work on a
	// plain URI: nothing to decode (no '%', and a charset UrlPathHelper decodes with
	// rather than URLDecoder, which reads '+' as a space), no path parameter (';') and no
	// empty segment ('//'), of a request that is not included; null for any other, which
	// UrlPathHelper reads
	private static @Nullable String plainPathWithinApplication(HttpServletRequest request) {
		if (request.getAttribute(WebUtils.INCLUDE_REQUEST_URI_ATTRIBUTE) != null
				|| request.getAttribute(WebUtils.INCLUDE_CONTEXT_PATH_ATTRIBUTE) != null) {
			return null;
		}
		String uri = request.getRequestURI();
		String contextPath = request.getContextPath();
		if (!isPlain(uri) || !isPlain(contextPath) || !decodesWith(request.getCharacterEncoding())) {
			return null;
		}
		// UrlPathHelper's reading of a context path of "/" (an include on Jetty)
		String mapping = contextPath.equals("/") ? "" : contextPath;
		if (!startsWithIgnoringCase(uri, mapping)) {
			return uri;
		}
		String path = uri.substring(mapping.length());
		return StringUtils.hasText(path) ? path : "/";
	}

	private static boolean isPlain(String uri) {
		return uri.indexOf('%') < 0 && uri.indexOf(';') < 0 && !uri.contains("//");
	}

	// Whether UrlPathHelper decodes with the request's charset (ISO-8859-1 when it has
	// none), rather than with URLDecoder for a charset it does not know
	private static boolean decodesWith(@Nullable String characterEncoding) {
		try {
			return characterEncoding == null || Charset.isSupported(characterEncoding);
		}
		catch (IllegalCharsetNameException ex) {
			return false;
		}
	}

	// As UrlPathHelper matches the context path: character by character, each in lower
	// case
	private static boolean startsWithIgnoringCase(String uri, String prefix) {
		if (uri.length() < prefix.length()) {
			return false;
		}
		for (int i = 0; i < prefix.length(); i++) {
			char c1 = uri.charAt(i);
			char c2 = prefix.charAt(i);
			if (c1 != c2 && Character.toLowerCase(c1) != Character.toLowerCase(c2)) {
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
