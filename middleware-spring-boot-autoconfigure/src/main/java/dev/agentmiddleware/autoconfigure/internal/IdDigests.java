package dev.agentmiddleware.autoconfigure.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The digest under which a store keeps a session id, thread id or principal name: never
 * the value itself. <pre>{@code
 * IdDigests.of("session-1");   // 64 lower-case hex digits
 * }</pre>
 */
public final class IdDigests {

	/** The length of a {@link #of(String) digest}: 64 hex digits. */
	public static final int LENGTH = 64;

	private IdDigests() {
	}

	/**
	 * The SHA-256 of a session id (or of any thread id), which is what a table keyed by
	 * it stores: its first
	 * {@value dev.agentmiddleware.tool.SessionFingerprint#HEX_DIGITS} hex digits are
	 * those of the {@link dev.agentmiddleware.tool.SessionFingerprint fingerprint} that
	 * logs and listings show, so a row can be matched to them.
	 * @param id the session id, of any length
	 * @return {@value #LENGTH} lower-case hex digits
	 */
	public static String of(String id) {
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(hash);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

}
