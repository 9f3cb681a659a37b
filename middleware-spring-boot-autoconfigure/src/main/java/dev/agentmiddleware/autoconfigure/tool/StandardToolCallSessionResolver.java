package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;
import dev.agentmiddleware.autoconfigure.tool.ToolCallSessionResolver.ToolCallSession;
import dev.agentmiddleware.tool.ToolPrincipal;
import jakarta.servlet.http.HttpSession;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * {@link ToolCallSessionResolver#standard()}: the scope first, then the HTTP session and
 * Spring Security, each only when its library is on the class path.
 */
final class StandardToolCallSessionResolver implements ToolCallSessionResolver {

	static final StandardToolCallSessionResolver INSTANCE = new StandardToolCallSessionResolver();

	private static final ClassLoader classLoader = StandardToolCallSessionResolver.class.getClassLoader();

	private static final boolean SERVLET_PRESENT = ClassUtils
		.isPresent("org.springframework.web.context.request.ServletRequestAttributes", classLoader)
			&& ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", classLoader);

	private StandardToolCallSessionResolver() {
	}

	@Override
	public ToolCallSession resolve() {
		ToolCallSession scoped = ToolCallScope.currentSession();
		String sessionId = (scoped != null) ? scoped.sessionId() : null;
		ToolPrincipal principal = (scoped != null) ? scoped.principal() : null;
		if (sessionId == null && SERVLET_PRESENT) {
			sessionId = Servlet.sessionId();
		}
		if (principal == null) {
			principal = ToolPrincipals.current();
		}
		return (sessionId == null && principal == null) ? ToolCallSession.NONE
				: new ToolCallSession(sessionId, principal);
	}

	/**
	 * Kept apart so that the servlet classes load only when present.
	 */
	private static final class Servlet {

		static @Nullable String sessionId() {
			RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
			if (attributes instanceof ServletRequestAttributes servlet) {
				HttpSession session = servlet.getRequest().getSession(false);
				return (session != null) ? session.getId() : null;
			}
			return null;
		}

	}

}
