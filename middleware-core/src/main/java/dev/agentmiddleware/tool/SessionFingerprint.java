package dev.agentmiddleware.tool;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * What logs, the actuator endpoint, the approval API and its console show instead of a
 * session id: the prefix {@value #PREFIX} and the first {@value #HEX_DIGITS} hex digits
 * of the SHA-256 of the id. A session id (an MCP {@code Mcp-Session-Id}, a conversation
 * id) works like a bearer secret, since whoever presents it continues the session with
 * its grants; its fingerprint is the same for every call of the session, so an operator
 * can correlate the lines and requests of one session, but it cannot be presented in its
 * place. <pre>{@code
 * SessionFingerprint.of("6f1c0b9e-2d4a-4c51-9f0e-5a7d3c2b1e08");  // "sid-" and 10 hex digits, such as "sid-8c2e41f07a"
 * SessionFingerprint.of(null);                                    // "none"
 * }</pre>
 *
 * <p>
 * Computing a fingerprint is cheap: the fingerprints of recent sessions are remembered,
 * so a session's calls hash its id once.
 */
public final class SessionFingerprint {

	/** The prefix every fingerprint starts with. */
	public static final String PREFIX = "sid-";

	/** How many hex digits of the hash a fingerprint keeps. */
	public static final int HEX_DIGITS = 10;

	/** What stands for the absent session of a call that has none. */
	public static final String NONE = "none";

	private static final int MAX_REMEMBERED = 1024;

	private static final Map<String, String> remembered = new ConcurrentHashMap<>();

	private SessionFingerprint() {
	}

	/**
	 * The fingerprint of a session id.
	 * @param sessionId the session id, {@code null} when the call has no session
	 * @return {@value #PREFIX} and {@value #HEX_DIGITS} lowercase hex digits, or
	 * {@value #NONE} for {@code null}
	 */
	public static String of(@Nullable String sessionId) {
		if (sessionId == null) {
			return NONE;
		}
		String fingerprint = remembered.get(sessionId);
		if (fingerprint == null) {
			fingerprint = compute(sessionId);
			if (remembered.size() >= MAX_REMEMBERED) {
				remembered.clear();
			}
			remembered.put(sessionId, fingerprint);
		}
		return fingerprint;
	}

	/**
	 * The fingerprint of a session id, or {@code null} without one: for JSON fields that
	 * are absent when a call has no session.
	 * @param sessionId the session id, or {@code null}
	 * @return the fingerprint, or {@code null}
	 */
	public static @Nullable String ofNullable(@Nullable String sessionId) {
		return (sessionId != null) ? of(sessionId) : null;
	}

	private static String compute(String sessionId) {
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
			return PREFIX + HexFormat.of().formatHex(hash, 0, HEX_DIGITS / 2);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

}
