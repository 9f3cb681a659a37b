package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * Seals and opens the {@code requestState} of an {@code input_required} answer (MCP
 * {@code 2026-07-28}, multi round-trip requests). The state carries the answers the
 * client gave in earlier rounds (a client sends only the latest round's), so that any
 * instance can serve the retry; it comes back from the client and is treated as
 * attacker-controlled. A state is the base64url JSON payload and its HMAC-SHA256 (key
 * from configuration, the same on every instance), bound to the request's method, a
 * digest of its params (the name or URI and the arguments, never {@code _meta},
 * {@code inputResponses} nor {@code requestState}), the principal and an expiry, and good
 * for one retry (a {@link McpRequestStateLedger} of the states used). A state that is
 * malformed, tampered with, expired, issued for another request or used before is refused
 * with {@code -32602} and a message that says which; never with the key or the payload.
 * The MAC is compared in constant time. A state also carries the values the call carries
 * from one round to its retry ({@link dev.agentmiddleware.tool.CallResumption}, such as
 * the id of its pending approval request), sealed the same way.
 */
final class McpRequestStates {

	/** The shortest key accepted: 256 bits. */
	static final int MIN_KEY_BYTES = 32;

	private static final String ALGORITHM = "HmacSHA256";

	private static final TypeRef<LinkedHashMap<String, Object>> MAP = new TypeRef<>() {
	};

	private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

	private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

	private static final int MAX_STATE_LENGTH = 1024 * 1024;

	private final McpJsonMapper jsonMapper;

	private final SecretKeySpec key;

	private final Duration validity;

	private final Clock clock;

	private final McpRequestStateLedger ledger;

	McpRequestStates(McpJsonMapper jsonMapper, byte[] key, Duration validity, Clock clock,
			McpRequestStateLedger ledger) {
		if (key.length < MIN_KEY_BYTES) {
			throw new IllegalArgumentException(
					"The requestState key must have at least " + MIN_KEY_BYTES + " bytes, has " + key.length);
		}
		this.jsonMapper = jsonMapper;
		this.key = new SecretKeySpec(key.clone(), ALGORITHM);
		this.validity = validity;
		this.clock = clock;
		this.ledger = ledger;
	}

	/**
	 * States sealed with a random key, good on this instance only until it stops.
	 * @param jsonMapper the JSON mapper
	 * @return the states
	 */
	static McpRequestStates random(McpJsonMapper jsonMapper) {
		return new McpRequestStates(jsonMapper, randomKey(), Duration.ofMinutes(10), Clock.systemUTC(),
				new InMemoryMcpRequestStateLedger(Clock.systemUTC()));
	}

	static byte[] randomKey() {
		byte[] key = new byte[MIN_KEY_BYTES];
		new SecureRandom().nextBytes(key);
		return key;
	}

	/**
	 * Seals a state.
	 * @param request what the state is bound to
	 * @param answers the answers the client gave so far, by key
	 * @return the state, for the client to echo
	 */
	String seal(Binding request, Map<String, Object> answers) {
		return seal(request, answers, Map.of());
	}

	/**
	 * Seals a state with the values the call carries to its retry.
	 * @param request what the state is bound to
	 * @param answers the answers the client gave so far, by key
	 * @param carried the values the call carries to its retry, by name
	 * @return the state, for the client to echo
	 */
	String seal(Binding request, Map<String, Object> answers, Map<String, String> carried) {
		Map<String, Object> payload = new LinkedHashMap<>();
		payload.put("id", UUID.randomUUID().toString());
		payload.put("method", request.method());
		payload.put("params", request.paramsDigest());
		payload.put("principal", request.principal());
		payload.put("expires", this.clock.millis() + this.validity.toMillis());
		payload.put("answers", answers);
		if (!carried.isEmpty()) {
			payload.put("carried", carried);
		}
		String body = ENCODER.encodeToString(json(payload).getBytes(StandardCharsets.UTF_8));
		return body + "." + ENCODER.encodeToString(mac(body));
	}

	/**
	 * Opens a state the client echoed, and records it as used.
	 * @param state the state
	 * @param request the request it came with
	 * @return the answers it carries, by key
	 * @throws McpError with {@code -32602} if the state is refused
	 */
	Map<String, Object> open(String state, Binding request) {
		return openCarrying(state, request).answers();
	}

	/**
	 * Opens a state the client echoed, with the values the call carried, and records it
	 * as used.
	 * @param state the state
	 * @param request the request it came with
	 * @return the answers and the carried values it holds
	 * @throws McpError with {@code -32602} if the state is refused
	 */
	Opened openCarrying(String state, Binding request) {
		int dot = state.indexOf('.');
		if (state.length() > MAX_STATE_LENGTH || dot <= 0 || dot != state.lastIndexOf('.')) {
			throw refused("is malformed");
		}
		String body = state.substring(0, dot);
		byte[] mac;
		byte[] payloadBytes;
		try {
			mac = DECODER.decode(state.substring(dot + 1));
			payloadBytes = DECODER.decode(body);
		}
		catch (IllegalArgumentException ex) {
			throw refused("is malformed");
		}
		if (!MessageDigest.isEqual(mac(body), mac)) {
			throw refused("failed its integrity check (it was altered, or sealed with another key)");
		}
		Map<String, Object> payload;
		try {
			payload = this.jsonMapper.readValue(new String(payloadBytes, StandardCharsets.UTF_8), MAP);
		}
		catch (IOException | RuntimeException ex) {
			throw refused("is malformed");
		}
		if (!(payload.get("id") instanceof String id) || !(payload.get("expires") instanceof Number expires)
				|| !(payload.get("answers") instanceof Map<?, ?> answers)) {
			throw refused("is malformed");
		}
		if (!request.method().equals(payload.get("method")) || !request.paramsDigest().equals(payload.get("params"))
				|| !Objects.equals(request.principal(), payload.get("principal"))) {
			throw refused("was issued for another request (its method, params or principal differ)");
		}
		Instant expiry = Instant.ofEpochMilli(expires.longValue());
		if (!this.clock.instant().isBefore(expiry)) {
			throw refused("has expired; send the request again without it");
		}
		if (!this.ledger.consume(id, expiry)) {
			throw refused("was already used (a requestState is good for one retry)");
		}
		Map<String, Object> opened = new LinkedHashMap<>();
		answers.forEach((key, value) -> opened.put(String.valueOf(key), value));
		Map<String, String> carried = new LinkedHashMap<>();
		if (payload.get("carried") instanceof Map<?, ?> values) {
			values.forEach((name, value) -> {
				if (value instanceof String text) {
					carried.put(String.valueOf(name), text);
				}
			});
		}
		return new Opened(opened, carried);
	}

	/**
	 * What an opened state holds.
	 *
	 * @param answers the answers the client gave in earlier rounds, by key
	 * @param carried the values the call carried to this retry, by name
	 */
	record Opened(Map<String, Object> answers, Map<String, String> carried) {

	}

	private byte[] mac(String body) {
		try {
			Mac mac = Mac.getInstance(ALGORITHM);
			mac.init(this.key);
			return mac.doFinal(body.getBytes(StandardCharsets.US_ASCII));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HMAC-SHA256 is not available", ex);
		}
	}

	private String json(Object value) {
		try {
			return this.jsonMapper.writeValueAsString(value);
		}
		catch (IOException ex) {
			throw new IllegalStateException("A requestState could not be written", ex);
		}
	}

	private static McpError refused(String why) {
		return new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(HardenedStreamableHttpTransport.INVALID_PARAMS,
				"Invalid params: the requestState " + why, null));
	}

	/**
	 * What a state is bound to: the request's method, a digest of its params and its
	 * principal.
	 *
	 * @param method the method
	 * @param paramsDigest the digest of the params ({@link #digest})
	 * @param principal the principal's name, or {@code null} for an anonymous request
	 */
	record Binding(String method, String paramsDigest, @Nullable String principal) {

		/**
		 * The binding of a request.
		 * @param jsonMapper the JSON mapper
		 * @param method the method
		 * @param params the params
		 * @param principal the principal's name, or {@code null}
		 * @return the binding
		 */
		static Binding of(McpJsonMapper jsonMapper, String method, Map<?, ?> params, @Nullable String principal) {
			return new Binding(method, digest(jsonMapper, params), principal);
		}

		// SHA-256 of the canonical JSON (keys sorted) of what names the request: name
		// or uri, and the arguments
		static String digest(McpJsonMapper jsonMapper, Map<?, ?> params) {
			Map<String, Object> named = new TreeMap<>();
			for (String key : List.of("name", "uri", "arguments")) {
				if (params.get(key) != null) {
					named.put(key, canonical(params.get(key)));
				}
			}
			try {
				byte[] json = jsonMapper.writeValueAsString(named).getBytes(StandardCharsets.UTF_8);
				return ENCODER.encodeToString(MessageDigest.getInstance("SHA-256").digest(json));
			}
			catch (IOException | GeneralSecurityException ex) {
				throw new IllegalStateException("The params of a request could not be digested", ex);
			}
		}

		private static @Nullable Object canonical(@Nullable Object value) {
			if (value instanceof Map<?, ?> map) {
				Map<String, Object> sorted = new TreeMap<>();
				map.forEach((key, item) -> sorted.put(String.valueOf(key), canonical(item)));
				return sorted;
			}
			if (value instanceof List<?> list) {
				List<Object> items = new ArrayList<>(list.size());
				list.forEach((item) -> items.add(canonical(item)));
				return items;
			}
			return value;
		}

	}

}
